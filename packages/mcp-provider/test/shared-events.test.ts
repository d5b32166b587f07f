// Events of a shared server reach every provider holding it, for as long as it holds it, not
// only the provider that created the connection.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, createMcpProvider, createSharedRegistry } from '../src/index.js';
import { eventLog, fixtureServer, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('events of a shared server', () => {
  it('reach every provider that holds it, and stop for one that closed', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const config = fixtureServer([`--tag=${tag}`], { shared: true });
    const restartPolicy = { ...DEFAULT_RESTART_POLICY, backoffMs: [0] };
    const firstLog = eventLog();
    const secondLog = eventLog();
    const first = createMcpProvider('sharedevents', config, {
      registry,
      runDirectory: run.path,
      restartPolicy,
      onEvent: firstLog.onEvent,
    });
    const second = createMcpProvider('sharedevents', config, {
      registry,
      runDirectory: run.path,
      restartPolicy,
      onEvent: secondLog.onEvent,
    });
    try {
      await first.start?.(AbortSignal.timeout(30_000));
      await second.start?.(AbortSignal.timeout(30_000));
      const started = (log: ReturnType<typeof eventLog>): number =>
        log.events.filter((event) => event.type === 'server-started').length;
      expect(started(firstLog)).toBe(1);
      expect(started(secondLog)).toBe(1);
      await first.close?.();
      const heardByFirst = firstLog.events.length;
      const crashed = await second.execute('crash', {}, createToolContext());
      expect(!crashed.ok && crashed.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(await waitFor(() => started(secondLog) === 2, 30_000)).toBe(true);
      expect(secondLog.events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['server-exited', 'server-restarting']),
      );
      expect(firstLog.events).toHaveLength(heardByFirst);
    } finally {
      await first.close?.();
      await second.close?.();
    }
  }, 60_000);

  it('reach a listener given to two providers once, until both have closed', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const config = fixtureServer([`--tag=${tag}`], { shared: true });
    const log = eventLog();
    const options = { registry, runDirectory: run.path, onEvent: log.onEvent };
    const first = createMcpProvider('onelistener', config, options);
    const second = createMcpProvider('onelistener', config, options);
    try {
      await Promise.all([
        first.start?.(AbortSignal.timeout(30_000)),
        second.start?.(AbortSignal.timeout(30_000)),
      ]);
      expect(log.events.filter((event) => event.type === 'server-started')).toHaveLength(1);
      await first.close?.();
      await second.close?.();
      // still given by the second provider after the first closed: it hears the server stop
      expect(log.events.filter((event) => event.type === 'server-stopped')).toHaveLength(1);
    } finally {
      await first.close?.();
      await second.close?.();
    }
  }, 60_000);
});
