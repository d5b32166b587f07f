import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { echo, testProvider } from './helpers.js';

let orchestrator: ToolsOrchestrator;
afterEach(async () => {
  await orchestrator?.close();
});

const schemaTool = {
  spec: {
    sideEffect: 'none' as const,
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  run: () => ok('fine'),
};

function codeOf(result: { ok: boolean; error?: { code: string } }): string {
  return result.ok ? 'OK' : (result.error?.code ?? '?');
}

describe('bad input never throws, never hangs, never loses a slot', () => {
  it('unknown tool', async () => {
    orchestrator = createOrchestrator();
    const result = await orchestrator.call('does_not_exist', {});
    expect(codeOf(result)).toBe('TOOL_NOT_FOUND');
    expect(result.meta?.tool).toBe('does_not_exist');
  });

  it.each([
    [42, 'got number'],
    [[1, 2], 'got an array'],
    ['not json', 'not JSON'],
    ['[1]', 'not an object'],
    [true, 'got boolean'],
  ])('arguments that are not an object: %j', async (args, fragment) => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', args);
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(!result.ok && result.error.message).toContain(fragment);
  });

  it('accepts arguments sent as a JSON string, and missing arguments as {}', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const fromString = await orchestrator.call('t__echo', '{"a":1}');
    expect(fromString.ok && fromString.content[0]).toEqual({ type: 'text', text: '{"a":1}' });
    expect((await orchestrator.call('t__echo', undefined)).ok).toBe(true);
  });

  it('arguments that fail the schema name the path', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('fs', { read: schemaTool }));
    const result = await orchestrator.call('fs__read', { limit: 0, extra: true });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    const message = !result.ok ? result.error.message : '';
    expect(message).toContain('args.path: is required');
    expect(message).toContain('args.limit: must be >= 1');
    expect(message).toContain('unknown property "extra"');
  });

  it('a tool whose schema does not compile is reported once and still runs', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (w) => warnings.push(w.message));
    orchestrator.register(
      testProvider('odd', {
        t: {
          spec: { inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
          run: () => ok('ran'),
        },
      }),
    );
    expect((await orchestrator.call('odd__t', {})).ok).toBe(true);
    expect((await orchestrator.call('odd__t', {})).ok).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('does not compile');
  });

  it('a provider that throws (sync or async)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(
      testProvider('bad', {
        async: {
          run: async () => {
            throw new Error('database is down');
          },
        },
      }),
    );
    orchestrator.register({
      ...testProvider('sync', {}),
      listTools: () => [{ name: 't', description: 'x', inputSchema: { type: 'object' } }],
      execute: () => {
        throw new TypeError('boom');
      },
    });
    const a = await orchestrator.call('bad__async', {});
    const b = await orchestrator.call('sync__t', {});
    expect(codeOf(a)).toBe('EXECUTION_FAILED');
    expect(!a.ok && a.error.message).toBe('database is down');
    expect(codeOf(b)).toBe('EXECUTION_FAILED');
  });

  it('a provider that never answers times out, gets its signal aborted, and frees its slot', async () => {
    orchestrator = createOrchestrator({ queues: { solo: { maxConcurrency: 1 } } });
    let sawAbort = false;
    orchestrator.register(
      testProvider('hang', {
        forever: {
          spec: { queue: 'solo', sideEffect: 'read' },
          run: (_args, ctx) =>
            new Promise(() => {
              ctx.signal.addEventListener('abort', () => {
                sawAbort = true;
              });
            }),
        },
        quick: { spec: { queue: 'solo' }, run: () => ok('quick') },
      }),
    );
    const result = await orchestrator.call('hang__forever', {}, { timeoutMs: 100 });
    expect(codeOf(result)).toBe('TIMEOUT');
    expect(!result.ok && result.error.message).toContain('did not finish within 100 ms');
    expect(sawAbort).toBe(true);
    expect(orchestrator.stats().queues.solo).toMatchObject({ running: 0, waiting: 0 });
    expect((await orchestrator.call('hang__quick', {})).ok).toBe(true);
  });

  it.each([
    [null, 'got null'],
    ['text', 'got string'],
    [{ ok: 'yes' }, 'no boolean "ok"'],
    [{ ok: true, content: 'x' }, 'content array'],
    [{ ok: false, error: { code: 'WHATEVER', message: 'x' } }, 'unknown error code'],
  ])('a provider that returns garbage: %j', async (garbage, fragment) => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('junk', { t: { run: () => garbage as never } }));
    const result = await orchestrator.call('junk__t', {});
    expect(codeOf(result)).toBe('INVALID_RESULT');
    expect(!result.ok && result.error.message).toContain(fragment);
  });

  it('an output of 500 MB is refused with OUTPUT_TOO_LARGE', async () => {
    orchestrator = createOrchestrator();
    const huge = 'x'.repeat(500 * 1000 * 1000);
    orchestrator.register(testProvider('big', { t: { run: () => ok(huge) } }));
    const result = await orchestrator.call('big__t', {});
    expect(codeOf(result)).toBe('OUTPUT_TOO_LARGE');
    expect(!result.ok && result.error.message).toMatch(/produced 476\.8 MiB, more than the 256\.0 MiB/);
  });

  it('no unhandled rejection when a late provider rejects after a timeout', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(
      testProvider('late', {
        t: {
          run: () =>
            new Promise((_, reject) => {
              setTimeout(() => reject(new Error('too late')), 80);
            }),
        },
      }),
    );
    const result = await orchestrator.call('late__t', {}, { timeoutMs: 20 });
    expect(codeOf(result)).toBe('TIMEOUT');
    await new Promise((resolve) => setTimeout(resolve, 120));
  });

  it('a listener that throws does not break calls', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    orchestrator.on('tool_finished', () => {
      throw new Error('listener bug');
    });
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
  });
});
