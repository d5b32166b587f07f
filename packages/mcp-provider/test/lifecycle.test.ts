import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider, createSharedRegistry } from '../src/index.js';
import { eventLog, fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());
const quickRestarts = {
  backoffMs: [0, 50, 100],
  maxRestarts: 5,
  crashWindowMs: 60_000,
  healthyResetMs: 600_000,
};

describe('lifecycle', () => {
  let provider: McpProvider | undefined;
  afterEach(async () => {
    await provider?.close?.();
    provider = undefined;
  });

  it('fails a call in flight when the server is killed with SIGKILL, then restarts', async () => {
    const log = eventLog();
    provider = createMcpProvider('crashy', fixtureServer(['--stderr-flood=2000']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
      restartPolicy: quickRestarts,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    const firstPid = provider.status().pid;
    const hanging = provider.execute('hang', {}, createToolContext());
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(firstPid as number, 'SIGKILL');
    const killedAt = Date.now();
    const result = await hanging;
    const failedAfterMs = Date.now() - killedAt;
    expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(!result.ok && result.error.message).toContain('SIGKILL');
    expect(!result.ok && result.error.message).toContain('LAST-STDERR-LINE');
    // The bound itself is measured in the benchmark; here only record it for the log.
    console.log(`in-flight call failed ${failedAfterMs} ms after SIGKILL`);
    expect(await waitFor(() => provider?.status().state === 'ready', 20_000)).toBe(true);
    expect(provider.status().pid).not.toBe(firstPid);
    const again = await provider.execute('echo', { message: 'back' }, createToolContext());
    expect(again.ok).toBe(true);
    expect(log.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['server-started', 'server-exited', 'server-restarting']),
    );
  });

  it('drains a stderr flood (the server never blocks) and keeps only a bounded tail', async () => {
    provider = createMcpProvider(
      'flood',
      fixtureServer(['--stderr-flood=3000000'], { stderrTailBytes: 4096 }),
      {
        runDirectory: run.path,
        restartPolicy: quickRestarts,
      },
    );
    await provider.start?.(AbortSignal.timeout(60_000));
    expect((await provider.execute('echo', { message: 'still talking' }, createToolContext())).ok).toBe(true);
    const result = await provider.execute('crash', {}, createToolContext());
    // The kill drops what the server had not flushed yet; what arrived is kept, bounded.
    expect(!result.ok && result.error.message).toContain('stderr: noise');
    expect(!result.ok && result.error.message.length).toBeLessThan(4096 + 1000);
  });

  it('fails a call whose tool kills the server mid-call', async () => {
    provider = createMcpProvider('crashcall', fixtureServer(), {
      runDirectory: run.path,
      restartPolicy: quickRestarts,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    const result = await provider.execute('crash', {}, createToolContext());
    expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(!result.ok && result.error.retryable).toBe(true);
  });

  it('marks a server that keeps crashing as failed and reports it', async () => {
    const log = eventLog();
    provider = createMcpProvider('crashloop', fixtureServer(['--die-after-list']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
      restartPolicy: quickRestarts,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    expect(await waitFor(() => provider?.status().state === 'failed', 30_000)).toBe(true);
    const failed = log.events.find((event) => event.type === 'server-failed');
    expect(failed && 'reason' in failed && failed.reason).toMatch(/crashed 6 times/);
    expect(log.events.filter((event) => event.type === 'server-restarting')).toHaveLength(5);
    const result = await provider.execute('echo', { message: 'x' }, createToolContext());
    expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(!result.ok && result.error.message).toContain('crashlo');
  });

  it('reports a server that cannot start with its stderr', async () => {
    provider = createMcpProvider('broken', fixtureServer(['--crash-on-start']), { runDirectory: run.path });
    await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toThrow(
      /"broken".*(exited with code 3|Connection closed).*fatal: fixture configured to crash/s,
    );
  });

  it('reports a missing executable clearly', async () => {
    provider = createMcpProvider(
      'missing',
      { type: 'stdio', command: '/nonexistent/mcp-server-binary' },
      { runDirectory: run.path },
    );
    await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toThrow(/"missing".*ENOENT/);
  });

  it('restarts a server whose health probe fails', async () => {
    const log = eventLog();
    const tag = uniqueTag();
    provider = createMcpProvider(
      'probed',
      fixtureServer([`--tag=${tag}`], { healthIntervalMs: 100, requestTimeoutMs: 2_000 }),
      {
        runDirectory: run.path,
        onEvent: log.onEvent,
        restartPolicy: quickRestarts,
      },
    );
    await provider.start?.(AbortSignal.timeout(30_000));
    const pid = provider.status().pid as number;
    // A stopped process answers nothing: the ping times out... so use SIGSTOP with a short request timeout.
    process.kill(pid, 'SIGSTOP');
    try {
      expect(await waitFor(() => log.events.some((event) => event.type === 'health-failed'), 20_000)).toBe(
        true,
      );
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {}
    }
    expect(
      await waitFor(() => provider?.status().state === 'ready' && provider.status().pid !== pid, 20_000),
    ).toBe(true);
    expect(await waitFor(() => !pidsWithTag(tag).includes(pid), 10_000)).toBe(true);
  });
});

describe('shared registry', () => {
  it('shares one server process between providers and closes it with the last reference', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const config = fixtureServer([`--tag=${tag}`], { shared: true });
    const first = createMcpProvider('shared', config, { registry, runDirectory: run.path });
    const second = createMcpProvider('shared', config, { registry, runDirectory: run.path });
    await Promise.all([
      first.start?.(AbortSignal.timeout(30_000)),
      second.start?.(AbortSignal.timeout(30_000)),
    ]);
    expect(registry.references('shared', config)).toBe(2);
    expect(first.status().pid).toBe(second.status().pid);
    expect(pidsWithTag(tag)).toHaveLength(1);
    await first.close?.();
    const stillThere = await second.execute('echo', { message: 'shared' }, createToolContext());
    expect(stillThere.ok).toBe(true);
    await second.close?.();
    expect(registry.size).toBe(0);
    expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
  });
});

describe('a cwd that cannot be used', () => {
  it('fails the start naming cwd, not as if the command were missing', async () => {
    const notThere = join(run.path, 'no-such-dir');
    const aFile = join(run.path, 'a-file');
    writeFileSync(aFile, 'x');
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      [notThere, /its working directory .*no-such-dir.* does not exist \(cwd\): create it or fix cwd/],
      [aFile, /its working directory .*a-file.* is not a directory \(cwd\)/],
    ];
    for (const [cwd, message] of cases) {
      const provider = createMcpProvider('cwd', fixtureServer([], { cwd }), { runDirectory: run.path });
      try {
        await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(message),
        });
      } finally {
        await provider.close?.();
      }
    }
  });
});
