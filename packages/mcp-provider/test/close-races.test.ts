// close() racing every state of a provider: a start in progress, a restart waiting on its backoff,
// a caller waiting for that restart, a call in flight, a listing in progress, a lazy server's
// first call, two closes at once. Each ends at once with a stable code and leaves no process.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, createMcpProvider } from '../src/index.js';
import {
  eventLog,
  fixtureServer,
  hostileServer,
  pidsWithTag,
  tempDirectory,
  uniqueTag,
  waitFor,
} from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

const settle = <T>(promise: Promise<T> | undefined): Promise<unknown> =>
  (promise ?? Promise.resolve()).then(
    (value) => value,
    (error: unknown) => error,
  );

describe('close() racing', () => {
  it('a start in progress: start() rejects with PROVIDER_UNAVAILABLE and no process is left', async () => {
    const tag = uniqueTag();
    const gate = join(run.path, `gate-${tag}`);
    const provider = createMcpProvider('starting', fixtureServer([`--tag=${tag}`, `--wait-for=${gate}`]), {
      runDirectory: run.path,
    });
    const started = settle(provider.start?.(AbortSignal.timeout(60_000)));
    expect(await waitFor(() => pidsWithTag(tag).length === 1, 20_000)).toBe(true);
    await provider.close?.();
    const error = await started;
    expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
    expect((error as Error).message).toMatch(/closed/);
    expect(pidsWithTag(tag)).toEqual([]);
    writeFileSync(gate, '');
    expect(provider.status().state).toBe('closed');
  }, 60_000);

  it('a restart waiting on its backoff, and a call waiting for it: both end, nothing starts again', async () => {
    const tag = uniqueTag();
    const log = eventLog();
    const provider = createMcpProvider('restarting', fixtureServer([`--tag=${tag}`]), {
      runDirectory: run.path,
      onEvent: log.onEvent,
      restartPolicy: { ...DEFAULT_RESTART_POLICY, backoffMs: [5_000] },
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    const crashed = await provider.execute('crash', {}, createToolContext());
    expect(!crashed.ok && crashed.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await waitFor(() => provider.status().state === 'restarting', 10_000)).toBe(true);
    const waiting = provider.execute('echo', { message: 'x' }, createToolContext());
    await provider.close?.();
    const result = await waiting;
    expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(!result.ok && result.error.message).toMatch(/closed/);
    expect(provider.status().state).toBe('closed');
    // the restart's timer was cleared: no server-started after the close
    const startsBefore = log.events.filter((event) => event.type === 'server-started').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(log.events.filter((event) => event.type === 'server-started')).toHaveLength(startsBefore);
    expect(pidsWithTag(tag)).toEqual([]);
  }, 60_000);

  it('a call in flight fails with PROVIDER_UNAVAILABLE, not its timeout', async () => {
    const tag = uniqueTag();
    const provider = createMcpProvider(
      'inflight',
      fixtureServer([`--tag=${tag}`], { requestTimeoutMs: 120_000 }),
      {
        runDirectory: run.path,
      },
    );
    await provider.start?.(AbortSignal.timeout(30_000));
    const hanging = provider.execute('hang', {}, createToolContext());
    await new Promise((resolve) => setTimeout(resolve, 100));
    await provider.close?.();
    const result = await hanging;
    expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(pidsWithTag(tag)).toEqual([]);
    const after = await provider.execute('echo', { message: 'x' }, createToolContext());
    expect(!after.ok && after.error.code).toBe('PROVIDER_UNAVAILABLE');
    await expect(provider.start?.(AbortSignal.timeout(10_000))).rejects.toThrow(/closed/);
    await expect(provider.refreshTools()).rejects.toThrow(/closed/);
  }, 60_000);

  it('a listing in progress (refreshTools on a server that pages slowly) ends, and no process is left', async () => {
    const provider = createMcpProvider(
      'listing',
      hostileServer(['--slow-pages=200'], { requestTimeoutMs: 120_000, lazy: true }),
      { runDirectory: run.path, toolCacheDirectory: run.path },
    );
    const refreshing = settle(provider.refreshTools(AbortSignal.timeout(60_000)));
    expect(await waitFor(() => provider.status().pid !== undefined, 20_000)).toBe(true);
    const pid = provider.status().pid as number;
    await provider.close?.();
    const error = await refreshing;
    expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await waitFor(() => !processAlive(pid), 5_000)).toBe(true);
  }, 60_000);

  it('a lazy server started by its first call: the call fails with PROVIDER_UNAVAILABLE, no process is left', async () => {
    const tag = uniqueTag();
    const gate = join(run.path, `gate-${tag}`);
    // the gate is open while a first provider lists (filling the cache), then shut: the lazy
    // provider's first call starts a server that does not answer until the test is done
    writeFileSync(gate, '');
    const config = fixtureServer([`--tag=${tag}`, `--wait-for=${gate}`], { lazy: true });
    const lister = createMcpProvider('lazyrace', config, {
      runDirectory: run.path,
      toolCacheDirectory: run.path,
    });
    await lister.refreshTools(AbortSignal.timeout(30_000));
    await lister.close?.();
    rmSync(gate);
    const provider = createMcpProvider('lazyrace', config, {
      runDirectory: run.path,
      toolCacheDirectory: run.path,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    expect(provider.status().pid).toBeUndefined();
    const calling = provider.execute('echo', { message: 'x' }, createToolContext());
    expect(await waitFor(() => pidsWithTag(tag).length === 1, 20_000)).toBe(true);
    await Promise.all([provider.close?.(), provider.close?.()]);
    const result = await calling;
    expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(pidsWithTag(tag)).toEqual([]);
    writeFileSync(gate, '');
  }, 60_000);
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
