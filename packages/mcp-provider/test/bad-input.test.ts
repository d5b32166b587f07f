import { createToolContext } from '@toolplane/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { eventLog, fixture, tempDirectory } from './helpers.js';

const run = tempDirectory();
afterAll(() => run.remove());

function raw(flags: string[] = [], extra = {}) {
  return {
    type: 'stdio' as const,
    command: process.execPath,
    args: [fixture('raw-server.mjs'), ...flags],
    healthIntervalMs: 0,
    ...extra,
  };
}

describe('servers that send bad things', () => {
  let provider: McpProvider | undefined;
  afterEach(async () => {
    await provider?.close?.();
    provider = undefined;
  });

  it('follows every tools/list page', async () => {
    provider = createMcpProvider('paged', raw(['--pages=6']), { runDirectory: run.path });
    await provider.start?.(AbortSignal.timeout(30_000));
    const names = (await provider.listTools()).map((spec) => spec.name);
    expect(names).toHaveLength(38);
    expect(names).toContain('paged_24');
  });

  it('sanitizes names no LLM API accepts, suffixes collisions, and calls with the remote name', async () => {
    provider = createMcpProvider('names', raw(), { runDirectory: run.path });
    await provider.start?.(AbortSignal.timeout(30_000));
    const specs = await provider.listTools();
    const weird = specs.filter((spec) => String(spec.meta?.remoteName).startsWith('weird'));
    expect(weird.map((spec) => spec.name)).toEqual([
      'weird_name_with_spaces_and_colons',
      'weird_name_with_spaces_and_colons_2',
    ]);
    for (const spec of specs) expect(spec.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const result = await provider.execute('weird_name_with_spaces_and_colons_2', {}, createToolContext());
    expect(result.ok && result.content[0]).toEqual({
      type: 'text',
      text: 'called weird name.with spaces/and_colons with {}',
    });
  });

  it('reports a schema that does not compile once, and still calls the tool', async () => {
    const log = eventLog();
    provider = createMcpProvider('schemas', raw(), { runDirectory: run.path, onEvent: log.onEvent });
    await provider.start?.(AbortSignal.timeout(30_000));
    const first = await provider.execute('bad_schema', { n: 1 }, createToolContext());
    const second = await provider.execute('bad_schema', { n: 2 }, createToolContext());
    expect(first.ok && second.ok).toBe(true);
    const reports = log.events.filter((event) => event.type === 'schema-invalid');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ server: 'schemas', tool: 'bad_schema' });
    // A good schema is still enforced.
    const invalid = await provider.execute('good', { n: 'x' }, createToolContext());
    expect(!invalid.ok && invalid.error.code).toBe('INVALID_ARGUMENTS');
  });

  it('applies allow/deny globs (deny wins) and schema overrides', async () => {
    provider = createMcpProvider(
      'filtered',
      raw([], {
        toolsAllowed: ['paged_1*', 'good', 'bad_*'],
        toolsDenied: ['paged_11', 'bad_*'],
        toolSchemas: {
          good: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } }, required: ['n'] },
        },
      }),
      { runDirectory: run.path },
    );
    await provider.start?.(AbortSignal.timeout(30_000));
    const names = (await provider.listTools()).map((spec) => spec.name).sort();
    expect(names).toEqual(
      [
        'good',
        ...Array.from({ length: 10 }, (_, i) => `paged_1${i}`).filter((n) => n !== 'paged_11'),
        'paged_1',
      ].sort(),
    );
    const overridden = await provider.execute('good', { n: 9 }, createToolContext());
    expect(!overridden.ok && overridden.error.message).toContain('args.n');
  });

  it('survives malformed JSON-RPC lines and reports them', async () => {
    const log = eventLog();
    provider = createMcpProvider('malformed', raw(['--malformed']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    const result = await provider.execute('good', { n: 1 }, createToolContext());
    expect(result.ok).toBe(true);
    const errors = log.events.filter((event) => event.type === 'protocol-error');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toMatchObject({ server: 'malformed' });
  });

  it('fails the start of a server that only sends garbage, naming it, while another serves', async () => {
    provider = createMcpProvider('garbage', raw(['--only-garbage'], { startupTimeoutMs: 1_500 }), {
      runDirectory: run.path,
    });
    const healthy = createMcpProvider('healthy', raw(), { runDirectory: run.path });
    try {
      const [bad, good] = await Promise.allSettled([
        provider.start?.(AbortSignal.timeout(30_000)),
        healthy.start?.(AbortSignal.timeout(30_000)),
      ]);
      expect(bad.status).toBe('rejected');
      expect(bad.status === 'rejected' && String(bad.reason.message)).toMatch(/"garbage".*1500 ms/);
      expect(good.status).toBe('fulfilled');
      expect((await healthy.execute('good', { n: 3 }, createToolContext())).ok).toBe(true);
    } finally {
      await healthy.close?.();
    }
  });
});
