// Keys named __proto__ on a 2026-07-28 session, where the v2 client keeps its own tools/list and
// tools/call (it mirrors arguments into headers from its own listing): a tool's schemas and its
// structured result keep them as own keys, as on every other path (test/hostile-keys.test.ts).
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { fixture, tempDirectory } from './helpers.js';

const run = tempDirectory();
let provider: McpProvider;
beforeAll(async () => {
  provider = createMcpProvider(
    'modern_keys',
    {
      type: 'stdio',
      command: process.execPath,
      args: [fixture('modern-stdio-server.mjs'), '--proto-keys'],
      client: 'v2',
      healthProbe: 'none',
    },
    { runDirectory: run.path },
  );
  await provider.start?.(AbortSignal.timeout(30_000));
}, 60_000);
afterAll(async () => {
  await provider.close?.();
  run.remove();
});

describe('keys named __proto__ on a 2026-07-28 session (client v2)', () => {
  it('keeps them in the input and output schemas and in the structured result', async () => {
    expect(provider.status().identity?.protocolVersion).toBe('2026-07-28');
    const spec = (await provider.listTools()).find((candidate) => candidate.name === 'proto_schema');
    for (const schema of [spec?.inputSchema, spec?.outputSchema]) {
      const properties = schema?.properties as object;
      expect(Object.keys(properties)).toEqual(['__proto__', 'constructor', 'toString']);
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
      expect(schema?.required).toEqual(['__proto__', 'constructor']);
    }
    const result = await provider.execute(
      'proto_schema',
      // toString given too: the server's validator reads an absent one from Object.prototype
      JSON.parse('{"__proto__":"p","constructor":1,"toString":"x"}'),
      createToolContext(),
    );
    expect(result).toMatchObject({ ok: true });
    const structured = result.ok ? (result.structured as object) : {};
    expect(JSON.stringify(structured)).toBe('{"__proto__":"p","constructor":1,"toString":"t"}');
    expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
  });
});
