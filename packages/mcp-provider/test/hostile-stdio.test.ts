// stdio servers that misbehave on purpose (fixtures/hostile-server.mjs): definitions and results
// nested deeper than a stack, stray answers, an exit during initialize, answers with both
// "result" and "error", a stdout closed early, messages too large or never ended.
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type McpProvider,
  type McpProviderEvent,
  type McpStdioServerConfig,
  createMcpProvider,
} from '../src/index.js';
import { eventLog, hostileServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/**
 * One case: a provider over the hostile server with `flags` (and a tag to count its
 * processes), closed after `body`; then no process of it may be left.
 */
async function withHostile(
  name: string,
  flags: string[],
  extra: Partial<McpStdioServerConfig>,
  body: (run: { provider: McpProvider; events: McpProviderEvent[]; tag: string }) => Promise<void>,
): Promise<McpProviderEvent[]> {
  const tag = uniqueTag();
  const log = eventLog();
  const provider = createMcpProvider(name, hostileServer([...flags, tag], extra), {
    runDirectory: run.path,
    onEvent: log.onEvent,
  });
  try {
    await body({ provider, events: log.events, tag });
  } finally {
    await provider.close?.();
  }
  // the server process is gone after close
  expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  return log.events;
}

describe('a tool whose inputSchema nests deeper than a stack', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: is left out with a protocol-error naming it, and the other tools serve`, async () => {
      await withHostile('deep', ['--deep-schema=20000'], { client }, async ({ provider, events, tag }) => {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect(pidsWithTag(tag)).toHaveLength(1);
        const names = (await provider.listTools()).map((spec) => spec.name);
        expect(names).toContain('echo');
        expect(names).not.toContain('deep');
        const reports = events.filter((event) => event.type === 'protocol-error');
        expect(reports.map((event) => JSON.stringify(event)).join('\n')).toMatch(/deep/);
        const result = await provider.execute('echo', {}, createToolContext());
        expect(result.ok).toBe(true);
      });
    });
  }
});

describe('a tool result nested deeper than a stack', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: is a failure with a code, and the server keeps serving`, async () => {
      await withHostile('deepResult', ['--deep-result=20000'], { client }, async ({ provider, tag }) => {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect(pidsWithTag(tag)).toHaveLength(1);
        const result = await provider.execute('echo', {}, createToolContext());
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT' } });
        expect(result.ok || result.error.message).toMatch(/nest/);
        const again = await provider.execute('lists', {}, createToolContext());
        expect(again.ok).toBe(true);
      });
    });
  }
});

/** The reports of answers to unknown ids, each coalesced report counted as what it stands for. */
const unknownIds = (events: readonly McpProviderEvent[]): number =>
  events.reduce(
    (sum, event) =>
      event.type === 'protocol-error' && /unknown message ID/.test(event.message)
        ? sum + (event.count ?? 1)
        : sum,
    0,
  );

describe('answers to ids never sent, and an answer sent twice', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: each call gets its own first answer, the strays and second answers are reported, the session serves on`, async () => {
      const events = await withHostile(
        'stray',
        ['--stray-answers'],
        { client },
        async ({ provider, events, tag }) => {
          await provider.start?.(AbortSignal.timeout(30_000));
          for (let i = 0; i < 3; i++) {
            const result = await provider.execute('echo', {}, createToolContext());
            expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'called echo' }] });
          }
          expect(provider.status().state).toBe('ready');
          expect(pidsWithTag(tag)).toHaveLength(1);
          // an answer to an id never sent is reported, on the SDK's ids and on the stdio call
          // path's "tp-" ids alike
          const reports = JSON.stringify(events.filter((event) => event.type === 'protocol-error'));
          expect(reports).toMatch(/unknown message ID.*987654/);
          expect(reports).toMatch(/unknown message ID.*never-sent/);
          expect(reports).toMatch(/unknown message ID.*tp-987654/);
          // the second answer to each call is reported too (the direct path dropped it quietly):
          // 3 calls, each with 3 strays and a duplicate, which comes after the call returned (the
          // reports past the first 10 are counted, and told within a second)
          expect(await waitFor(() => unknownIds(events) >= 12, 15_000)).toBe(true);
        },
      );
      expect(unknownIds(events)).toBe(12);
    });
  }
});

describe('a flood of answers to "tp-" ids never sent', () => {
  it('reports them coalesced (a few events, the rest counted) and serves on', async () => {
    await withHostile('stray-flood', ['--stray-flood=20000'], {}, async ({ provider, events }) => {
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('echo', {}, createToolContext());
      expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'called echo' }] });
      const counted = (): number =>
        events.reduce((sum, event) => (event.type === 'protocol-error' ? sum + (event.count ?? 1) : sum), 0);
      // every stray is counted (the flood comes before the answer to the call)
      expect(await waitFor(() => counted() >= 20_000, 15_000)).toBe(true);
      const errors = events.filter((event) => event.type === 'protocol-error');
      expect(errors.length).toBeLessThan(40);
      expect(JSON.stringify(errors)).toMatch(/unknown message ID.*tp-/);
    });
  });
});

describe('a server that exits while it is asked to initialize', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: fails the start at once with its exit code and stderr, leaving no process`, async () => {
      await withHostile('quitter', ['--exit-in-initialize'], { client }, async ({ provider }) => {
        await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(/code 4[\s\S]*exiting in initialize/),
        });
      });
    });
  }
});

describe('a response with both "result" and "error"', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: fails the call at once with the error, reported, instead of waiting for the timeout`, async () => {
      await withHostile(
        'both',
        ['--both'],
        { client, requestTimeoutMs: 120_000 },
        async ({ provider, events }) => {
          await provider.start?.(AbortSignal.timeout(30_000));
          const result = await provider.execute('echo', {}, createToolContext());
          expect(result).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' } });
          expect(result.ok || result.error.message).toMatch(/both/);
          expect(
            await waitFor(() =>
              events.some(
                (event) => event.type === 'protocol-error' && /both "result" and "error"/.test(event.message),
              ),
            ),
          ).toBe(true);
          expect(provider.status().state).toBe('ready');
        },
      );
    });
  }
});

describe('a server that closes its stdout and stays alive', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: is stopped, the call fails at once saying so, and it restarts`, async () => {
      await withHostile(
        'mute',
        ['--close-stdout'],
        { client, requestTimeoutMs: 120_000 },
        async ({ provider, events }) => {
          await provider.start?.(AbortSignal.timeout(30_000));
          const result = await provider.execute('close_stdout', {}, createToolContext());
          expect(result).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
          expect(result.ok || result.error.message).toMatch(/closed its standard output/);
          // restarted by the restart policy (its first delay is 0), and serving
          expect(
            await waitFor(() => events.filter((event) => event.type === 'server-started').length === 2),
          ).toBe(true);
          expect((await provider.execute('echo', {}, createToolContext())).ok).toBe(true);
        },
      );
    });
  }
});

/** The error the start of `provider` rejects with (or undefined); the provider is closed after. */
async function startError(provider: McpProvider): Promise<unknown> {
  try {
    await provider.start?.(AbortSignal.timeout(60_000));
  } catch (error) {
    return error;
  } finally {
    await provider.close?.();
  }
  return undefined;
}

describe('an initialize answered with both "result" and "error"', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`fails the start at once with the server's error (client ${client}), not at the startup timeout`, async () => {
      // the startup timeout is far longer than the test's own: only an early failure passes
      const provider = createMcpProvider(
        'both',
        hostileServer(['--both-initialize'], { client, startupTimeoutMs: 600_000 }),
        { runDirectory: run.path },
      );
      const error = await startError(provider);
      expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
      expect((error as Error).message).toMatch(/both "result" and "error".*initialize half-failed/);
    }, 30_000);
  }
});

describe('messages a stdio server cannot frame', () => {
  it('a tools/list over maxMessageBytes fails the start naming the limit to raise', async () => {
    const provider = createMcpProvider(
      'oversize',
      hostileServer(['--tools=2000'], { maxMessageBytes: 10_000 }),
      {
        runDirectory: run.path,
      },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringMatching(/exceeds 10000 bytes.*raise maxMessageBytes/),
      });
    } finally {
      await provider.close?.();
    }
  });

  it('a server whose messages never end with a newline fails its start within startupTimeoutMs', async () => {
    const provider = createMcpProvider(
      'unterminated',
      hostileServer(['--no-newline'], { startupTimeoutMs: 2_000 }),
      {
        runDirectory: run.path,
      },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringContaining('did not initialize within 2000 ms'),
      });
    } finally {
      await provider.close?.();
    }
  });
});
