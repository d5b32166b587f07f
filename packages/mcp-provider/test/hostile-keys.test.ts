// Keys named after Object.prototype members in what a server sends (tool definitions, results,
// _meta) and in the arguments sent to it: they arrive, and are passed on, as own keys.
import { type ToolResult, createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, type McpServerConfig, createMcpProvider } from '../src/index.js';
import { eventLog, fixture, hostileServer, tempDirectory } from './helpers/index.js';
import { type RunningHttpFixture, startHttpFixture } from './helpers/http-fixture.js';

const run = tempDirectory();
let bridge: RunningHttpFixture;
beforeAll(async () => {
  bridge = await startHttpFixture([fixture('hostile-server.mjs'), '--proto-keys'], 'ws-bridge.mjs');
});
afterAll(async () => {
  await bridge.close();
  run.remove();
});

/** JSON text, so "__proto__" is an own key (an object literal would set the prototype). */
const PROTO_ARGUMENTS = '{"__proto__":"p","constructor":1,"toString":"x"}';

const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
  { name: 'stdio, client v1 (direct calls)', config: () => hostileServer(['--proto-keys']) },
  { name: 'stdio, client v2', config: () => hostileServer(['--proto-keys'], { client: 'v2' }) },
  {
    name: 'WebSocket, client v1',
    config: () => ({ type: 'websocket', url: `ws://127.0.0.1:${bridge.port}/` }),
  },
  {
    name: 'WebSocket, client v2',
    config: () => ({ type: 'websocket', url: `ws://127.0.0.1:${bridge.port}/`, client: 'v2' }),
  },
];

function textOf(result: ToolResult): string {
  return result.ok && result.content[0]?.type === 'text' ? result.content[0].text : JSON.stringify(result);
}

describe.each(paths)('keys named __proto__, constructor, toString ($name)', ({ config }) => {
  let provider: McpProvider;
  const log = eventLog();
  beforeAll(async () => {
    provider = createMcpProvider('keys', config(), { runDirectory: run.path, onEvent: log.onEvent });
    await provider.start?.(AbortSignal.timeout(30_000));
  }, 60_000);
  afterAll(() => provider.close?.());

  it('keeps every property of an input and output schema, and a call that fits them goes through', async () => {
    const specs = await provider.listTools();
    const spec = specs.find((candidate) => candidate.name === 'proto_schema');
    const properties = spec?.inputSchema.properties as object;
    expect(Object.keys(properties)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(spec?.outputSchema?.properties as object)).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
    const result = await provider.execute('proto_schema', JSON.parse(PROTO_ARGUMENTS), createToolContext());
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && JSON.stringify(result.structured)).toBe(PROTO_ARGUMENTS);
    // ajv cannot check a property named __proto__: the tool goes unchecked here, and says so once
    expect(log.events.filter((event) => event.type === 'schema-invalid')).toEqual([
      expect.objectContaining({
        tool: 'proto_schema',
        message: expect.stringMatching(/names a property "__proto__"/),
      }),
    ]);
  });

  it('passes arguments with those own keys to the server as they were sent', async () => {
    const result = await provider.execute('raw_arguments', JSON.parse(PROTO_ARGUMENTS), createToolContext());
    expect(textOf(result)).toBe(PROTO_ARGUMENTS);
  });

  it('returns structured content with those own keys as sent, polluting no prototype', async () => {
    const result = await provider.execute('proto_result', {}, createToolContext());
    expect(result.ok).toBe(true);
    const structured = result.ok ? (result.structured as object) : {};
    expect(Object.keys(structured)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
    expect(JSON.stringify(structured)).toBe(
      '{"__proto__":{"polluted":true},"constructor":"c","toString":"t"}',
    );
    expect(textOf(result)).toBe('proto');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('tools named after Object.prototype members', () => {
  it('keep their own schema and cache settings when toolSchemas and toolsCacheTtlMs are set', async () => {
    const log = eventLog();
    const provider = createMcpProvider(
      'names',
      hostileServer(['--proto-names'], {
        toolSchemas: { echo: { type: 'object', properties: {} } },
        toolsCacheTtlMs: { echo: 1_000 },
      }),
      { runDirectory: run.path, onEvent: log.onEvent },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const specs = await provider.listTools();
      for (const name of ['constructor', 'toString', '__proto__']) {
        const spec = specs.find((candidate) => candidate.meta?.remoteName === name);
        expect(spec?.inputSchema, name).toEqual({
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        });
        expect(spec?.cacheTtlMs, name).toBeUndefined();
        const refused = await provider.execute(spec?.name ?? name, { n: 'one' }, createToolContext());
        expect(!refused.ok && refused.error.code, name).toBe('INVALID_ARGUMENTS');
        const called = await provider.execute(spec?.name ?? name, { n: 1 }, createToolContext());
        expect(called.ok && called.content[0], name).toEqual({ type: 'text', text: `called ${name}` });
      }
      expect(log.events.filter((event) => event.type === 'schema-invalid')).toEqual([]);
    } finally {
      await provider.close?.();
    }
  });
});

// On a 2026-07-28 session the v2 client keeps its own tools/list and tools/call (it mirrors
// arguments into headers from its own listing): the keys survive there too.
describe('keys named __proto__ on a 2026-07-28 session (client v2)', () => {
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
  });

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
