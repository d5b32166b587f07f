// One long-lived caller signal given to many starts, listings and pings. Node 20 keeps an entry
// for every signal made with AbortSignal.any on each of its sources for as long as the source
// lives (a set of weak references that never shrinks), so following the caller's signal that way
// would grow a host's signal by one per refreshTools() or ping(). The provider follows it through
// core's onAbort (one listener per signal) and lets go when the request ends.
import { getEventListeners } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider, createSharedRegistry } from '../src/index.js';
import { fixtureServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/**
 * How many signals made with AbortSignal.any Node holds on `signal` (its internal set, found by
 * its symbol's description; on a Node without one there is none to hold).
 */
function dependants(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find(
    (symbol) => symbol.description === 'kDependantSignals',
  );
  const held = key === undefined ? undefined : (signal as unknown as Record<symbol, { size?: unknown }>)[key];
  return typeof held?.size === 'number' ? held.size : 0;
}

describe('a caller signal given to 200 requests', () => {
  it('gains nothing from refreshTools() and start() on a provider of its own', async () => {
    const provider = createMcpProvider('own', fixtureServer(), { runDirectory: run.path });
    const caller = new AbortController();
    try {
      await provider.start?.(caller.signal);
      for (let index = 0; index < 200; index++) await provider.refreshTools?.(caller.signal);
      expect(dependants(caller.signal)).toBe(0);
      expect(getEventListeners(caller.signal, 'abort').length).toBeLessThanOrEqual(1);
    } finally {
      await provider.close?.();
    }
  }, 60_000);

  it('gains nothing from ping() and refreshTools() on a shared provider', async () => {
    const registry = createSharedRegistry();
    const provider = createMcpProvider('shared', fixtureServer([], { shared: true }), {
      runDirectory: run.path,
      registry,
    });
    const caller = new AbortController();
    try {
      await provider.start?.(caller.signal);
      for (let index = 0; index < 100; index++) {
        await provider.ping?.({ signal: caller.signal });
        await provider.refreshTools?.(caller.signal);
      }
      expect(dependants(caller.signal)).toBe(0);
      expect(getEventListeners(caller.signal, 'abort').length).toBeLessThanOrEqual(1);
    } finally {
      await provider.close?.();
    }
  }, 60_000);
});
