import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from './helpers/bad-input.js';
import { useCleanups } from './helpers/fixtures.js';

const { provider, defer } = useCleanups();

/** A server that answers every request with these raw bytes and then closes the connection. */
async function cutServer(answer: string): Promise<string> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('an answer cut off in the middle of its body', () => {
  it('says the server answered and closed early, not that it is unreachable', async () => {
    const origin = await cutServer(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"items":[1,2',
    );
    const refused = await cutServer('');
    const rest = provider({ cut: getTool(`${origin}/items`), silent: getTool(`${refused}/items`) });
    const cut = failure(await rest.execute('cut', {}, createToolContext()));
    expect(cut.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(cut.error.retryable).toBe(true);
    // it used to say "is unreachable", sending the operator to look at the network
    expect(cut.error.message).toContain('answered, then closed the connection before its body ended');
    expect(cut.error.message).not.toContain('unreachable');
    // a server that closes without answering is still unreachable
    const silent = failure(await rest.execute('silent', {}, createToolContext()));
    expect(silent.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(silent.error.message).toContain('unreachable');
  });
});
