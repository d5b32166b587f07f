import { type AddressInfo, createServer } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool } from '../helpers/bad-input.js';
import { useCleanups } from '../helpers/fixtures.js';
import { BROKEN_ANSWERS, rawServer } from '../helpers/raw-server.js';

const { provider, defer } = useCleanups();

describe('answers that are not valid HTTP/1.1', () => {
  it('fail EXECUTION_FAILED saying the server (or a proxy) is at fault, not that it is unreachable', async () => {
    for (const [what, answer] of Object.entries(BROKEN_ANSWERS)) {
      const origin = await rawServer(defer, answer);
      const result = failure(
        await provider({ a: getTool(`${origin}/a`) }).execute('a', {}, createToolContext()),
      );
      // not "is unreachable", "Headers Overflow Error" or the parser's words alone
      expect(result.error.code, what).toBe('EXECUTION_FAILED');
      expect(result.error.message, what).toContain(`GET ${origin}/a answered`);
      expect(result.error.message, what).toContain('the server or a proxy in between is misbehaving');
      expect(result.error.retryable, what).toBe(false);
    }
  });

  it('skip interim answers other than 100 and read the answer after them', async () => {
    for (const interim of [
      'HTTP/1.1 102 Processing\r\n\r\n',
      'HTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\n',
    ]) {
      const origin = await rawServer(
        defer,
        `${interim}HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}`,
      );
      const result = await provider({ a: getTool(`${origin}/a`) }).execute('a', {}, createToolContext());
      expect(result.ok, interim).toBe(true);
      expect(result.ok && result.structured, interim).toEqual({ ok: true });
    }
  });
});

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
    // not "is unreachable", which would send the operator to look at the network
    expect(cut.error.message).toContain('answered, then closed the connection before its body ended');
    expect(cut.error.message).not.toContain('unreachable');
    // a server that closes without answering is still unreachable
    const silent = failure(await rest.execute('silent', {}, createToolContext()));
    expect(silent.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(silent.error.message).toContain('unreachable');
  });
});
