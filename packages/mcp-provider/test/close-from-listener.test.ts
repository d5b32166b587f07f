// close() called from inside an event listener (an app that gives up on a server when it
// starts badly or exits): the provider ends cleanly, with no restart and no process left.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpProvider, type McpProviderEvent, createMcpProvider } from '../src/index.js';
import { fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

function closingOn(type: McpProviderEvent['type'], tag: string): { provider: McpProvider; events: string[] } {
  const events: string[] = [];
  let provider: McpProvider | undefined;
  provider = createMcpProvider('selfclose', fixtureServer([`--tag=${tag}`]), {
    runDirectory: run.path,
    onEvent: (event) => {
      events.push(event.type);
      if (event.type === type) void provider?.close?.();
    },
  });
  return { provider, events };
}

describe('close() from an event listener', () => {
  it('on server-started: start() rejects with PROVIDER_UNAVAILABLE and no process is left', async () => {
    const tag = uniqueTag();
    const { provider } = closingOn('server-started', tag);
    await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
    });
    expect(provider.status().state).toBe('closed');
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  }, 60_000);

  it('on server-exited: nothing restarts, the next call fails with PROVIDER_UNAVAILABLE', async () => {
    const tag = uniqueTag();
    const { provider, events } = closingOn('server-exited', tag);
    await provider.start?.(AbortSignal.timeout(30_000));
    const crashed = await provider.execute('crash', {}, createToolContext());
    expect(!crashed.ok && crashed.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await waitFor(() => provider.status().state === 'closed', 10_000)).toBe(true);
    const after = await provider.execute('echo', { message: 'x' }, createToolContext());
    expect(!after.ok && after.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(events).not.toContain('server-restarting');
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  }, 60_000);
});
