// close() while calls run: the calls settle at once as CANCELLED (not at their own timeouts), with
// nothing left behind: no child process, no connection to the server. And a long-lived caller
// signal gets no listener that outlives its call.
import { getEventListeners } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, eventually, failure, makeTempDir, okText } from './helpers/index.js';
import { isAlive } from '../src/executor/process-tree.js';
import { createBuiltinProvider } from '../src/provider.js';

describe('provider close() with calls in flight', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let server: Server;
  let port: number;
  let requests = 0;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-close-'));
    requests = 0;
    // A page that starts and never ends: web_fetch would wait for its 60 s timeout.
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<p>the start of a page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await cleanup();
  });
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  it('cancels a web_fetch that waits for a page and a command that waits for its timeout', async () => {
    const provider = createBuiltinProvider({
      workspace: dir,
      webFetch: { allowPrivate: true, timeoutMs: 60_000 },
    });
    const ctx = context('closing');
    const fetching = provider.execute('web_fetch', { url: `http://127.0.0.1:${port}/never-ends` }, ctx);
    const running = provider.execute(
      'bash',
      { command: 'echo $$ > shell.pid; exec sleep 120', timeout: 120_000 },
      ctx,
    );
    expect(
      await eventually(
        async () => requests === 1 && (await readFile(join(dir, 'shell.pid'), 'utf8').catch(() => '')) !== '',
      ),
    ).toBe(true);
    const pid = Number((await readFile(join(dir, 'shell.pid'), 'utf8')).trim());
    expect(isAlive(pid)).toBe(true);
    expect(await connections()).toBe(1);

    await provider.close?.();
    // Settled by close() itself: no timeout of theirs came near.
    const [fetched, ran] = await Promise.all([fetching, running]);
    expect(failure(fetched)).toMatchObject({
      code: 'CANCELLED',
      message: 'web_fetch was cancelled: the builtin provider was closed while it ran',
    });
    expect(failure(ran).code).toBe('CANCELLED');
    expect(isAlive(pid)).toBe(false);
    expect(await eventually(async () => (await connections()) === 0)).toBe(true);
    // And later calls are refused clearly; a second close is harmless.
    expect(failure(await provider.execute('todo_read', {}, ctx)).code).toBe('PROVIDER_UNAVAILABLE');
    await provider.close?.();
  });

  it('leaves no abort listener on a long-lived caller signal after its calls', async () => {
    const provider = createBuiltinProvider({ workspace: dir });
    const session = new AbortController();
    const ctx = context('long-lived', { signal: session.signal });
    try {
      okText(await provider.execute('todo_read', {}, ctx));
      // core's onAbort keeps one shared listener per signal, however many calls follow it.
      const first = getEventListeners(session.signal, 'abort').length;
      expect(first).toBeLessThanOrEqual(1);
      for (let i = 0; i < 10_000; i++) okText(await provider.execute('todo_read', {}, ctx));
      for (let i = 0; i < 50; i++) okText(await provider.execute('list', { path: '.' }, ctx));
      expect(getEventListeners(session.signal, 'abort')).toHaveLength(first);
    } finally {
      await provider.close?.();
    }
  });
});
