// close() called again while the first close is still stopping the server (an app and the
// orchestrator both closing, or a close from an event listener and one at shutdown): every
// close resolves only once the whole tree is gone, so a caller that awaited any of them can
// rely on it.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider, createSharedRegistry } from '../src/index.js';
import { pidsWithTag, tempDirectory, uniqueTag, wrappedServer } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('a second close() while the first runs', () => {
  it('resolves once the server tree is gone, and a call after it is PROVIDER_UNAVAILABLE', async () => {
    const tag = uniqueTag();
    const provider = createMcpProvider('twice', wrappedServer(tag), {
      runDirectory: run.path,
      killGraceMs: 200,
    });
    await provider.start?.(AbortSignal.timeout(30_000));
    expect(pidsWithTag(tag).length).toBeGreaterThan(0);
    const first = provider.close?.();
    await provider.close?.();
    expect(pidsWithTag(tag)).toEqual([]);
    await first;
    await provider.close?.(); // a third, after it all: harmless
    const after = await provider.execute('echo', { message: 'late' }, createToolContext());
    expect(after).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
  }, 60_000);

  it('of the last provider of a shared server, resolves once the server tree is gone', async () => {
    const tag = uniqueTag();
    const registry = createSharedRegistry();
    const provider = createMcpProvider(
      'twice_shared',
      { ...wrappedServer(tag), shared: true },
      { runDirectory: run.path, killGraceMs: 200, registry },
    );
    await provider.start?.(AbortSignal.timeout(30_000));
    const first = provider.close?.();
    await provider.close?.();
    expect(pidsWithTag(tag)).toEqual([]);
    await first;
  }, 60_000);
});
