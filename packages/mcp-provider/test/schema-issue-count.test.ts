// Arguments or a result that break a schema in more places than are described (core describes
// the first 1000 and counts the rest): the message counts every one of them.
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { fixture, tempDirectory } from './helpers/index.js';

const run = tempDirectory();

describe.each(['v1', 'v2'] as const)('schema issues past the described ones (client %s)', (client) => {
  let provider: McpProvider;
  beforeAll(async () => {
    provider = createMcpProvider(
      'issues',
      {
        type: 'stdio',
        command: process.execPath,
        args: [fixture('many-issues-server.mjs'), '--wrong=2000'],
        healthProbe: 'none',
        client,
      },
      { runDirectory: run.path },
    );
    await provider.start?.(AbortSignal.timeout(30_000));
  }, 60_000);
  afterAll(async () => {
    await provider.close?.();
    if (client === 'v2') run.remove();
  });

  it('counts every argument that breaks the input schema', async () => {
    const values = Array.from({ length: 2000 }, (_, index) => `a${index}`);
    const result = await provider.execute('values', { values }, createToolContext());
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain('args.values[0]: must be number');
    expect(message).toContain('and 1995 more');
  });

  it('counts every value of a result that breaks the output schema', async () => {
    const result = await provider.execute('values', { values: [1] }, createToolContext());
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT' } });
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain('and 1995 more');
  });
});
