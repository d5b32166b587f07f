// Crash loops the window does not see: a server that stays up longer than crashWindowMs before
// each crash (by default over 10 s, so never 6 within a minute once the backoff reached 60 s).
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, createMcpProvider } from '../src/index.js';
import { eventLog, fixtureServer, tempDirectory, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('a server that crashes each time after a delay longer than the crash window', () => {
  it('is marked failed after maxConsecutiveRestarts restarts without a healthy period', async () => {
    const log = eventLog();
    // up 300 ms after each listing before it crashes, a window of 100 ms: the window never holds
    // two crashes, however slow the machine (a slow start only spreads them further apart)
    const provider = createMcpProvider('slowcrash', fixtureServer(['--die-after-list=300']), {
      runDirectory: run.path,
      onEvent: log.onEvent,
      restartPolicy: {
        ...DEFAULT_RESTART_POLICY,
        backoffMs: [0, 20],
        crashWindowMs: 100,
        maxConsecutiveRestarts: 3,
      },
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(await waitFor(() => provider.status().state === 'failed', 60_000)).toBe(true);
      expect(log.events.filter((event) => event.type === 'server-restarting')).toHaveLength(3);
      const failed = log.events.find((event) => event.type === 'server-failed');
      expect(failed && 'reason' in failed && failed.reason).toMatch(
        /crashed 4 times in a row, none up for healthyResetMs \(600000 ms\)/,
      );
      const result = await provider.execute('echo', { message: 'x' }, createToolContext());
      expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(!result.ok && result.error.message).toContain('in a row');
      // what brings it back: start() does not (a server given up is not started again), restart() does
      expect(!result.ok && result.error.message).toContain('fix the server, then call provider.restart()');
      await expect(provider.start?.(AbortSignal.timeout(10_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
      });
    } finally {
      await provider.close?.();
    }
  }, 90_000);

  it('refuses a maxConsecutiveRestarts that is not a whole number of 0 or more', () => {
    for (const value of [-1, 1.5, '3']) {
      expect(() =>
        createMcpProvider('slowcrash', fixtureServer(), {
          restartPolicy: { ...DEFAULT_RESTART_POLICY, maxConsecutiveRestarts: value as number },
        }),
      ).toThrow(/restartPolicy\.maxConsecutiveRestarts must be a whole number of 0 or more/);
    }
  });
});
