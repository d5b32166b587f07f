import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../../test/helpers.js';
import { type BuiltinProvider, createBuiltinProvider } from '../provider.js';

// A hostile user's URLs and a hostile server's answers: credentials, odd ports, huge URLs,
// redirects of every shape, empty answers, error pages that are not text, endless bodies.

let server: Server;
let port: number;
let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;
let endlessClosed = false;
const password = `pw-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-web-sweep-'));
  server = createServer((request, response) => {
    const url = request.url ?? '/';
    const hops = /^\/hop\/(\d+)$/.exec(url);
    if (hops) {
      const left = Number(hops[1]);
      if (left > 0) response.writeHead(302, { location: `/hop/${left - 1}` }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
    } else if (url === '/ok') response.writeHead(200, { 'content-type': 'text/plain' }).end('ok body');
    else if (url === '/protocol-relative')
      response.writeHead(301, { location: `//127.0.0.1:${port}/ok` }).end();
    else if (url === '/relative') response.writeHead(307, { location: 'ok' }).end();
    else if (url === '/credentials')
      response.writeHead(302, { location: `http://bob:${password}@127.0.0.1:${port}/ok` }).end();
    else if (url === '/broken-location') response.writeHead(302, { location: 'http://[::1' }).end();
    else if (url === '/no-content') response.writeHead(204).end();
    else if (url === '/not-modified') response.writeHead(304).end();
    else if (url === '/missing-binary')
      response.writeHead(404, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(10));
    else if (url === '/failing-untyped') response.writeHead(503).end('down');
    else if (url === '/pdf') response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n');
    else if (url === '/endless') {
      // No content-length, never ends: the byte cap must stop the reading.
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.on('close', () => {
        endlessClosed = true;
      });
      const more = (): void => {
        let room = true;
        for (let piece = 0; piece < 64 && room && !response.destroyed; piece++)
          room = response.write(Buffer.alloc(16 * 1024, 'a'));
        if (response.destroyed) return;
        if (room) setImmediate(more);
        else response.once('drain', more);
      };
      more();
    } else if (url === '/slowloris') {
      // A byte every 100 ms, forever: the timeout must end it.
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('a'), 100);
      response.on('close', () => clearInterval(timer));
    } else response.writeHead(404, { 'content-type': 'text/plain' }).end('unknown');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  provider = createBuiltinProvider({
    workspace: dir,
    webFetch: { allowPrivate: true, maxBytes: 1_000_000, timeoutMs: 2000 },
  });
});

afterAll(async () => {
  await provider?.close?.();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup();
});

const fetch = (url: string) => provider.execute('web_fetch', { url }, context());
const local = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);

describe('web_fetch as a hostile user and against a hostile server', () => {
  it('never repeats a password from a URL, valid or not, in its answer', async () => {
    for (const url of [
      `http://alice:${password}@127.0.0.1:99999/`,
      `http://alice:${password}@exa mple.com/`,
      `http://alice:${password}@127.0.0.1:${port}/ok`,
    ]) {
      const text = textOf(await fetch(url));
      expect(text).toMatch(/^INVALID_ARGUMENTS: /);
      expect(text).not.toContain(password);
    }
  });

  it('refuses a redirect to a URL with credentials as DENIED, without repeating them', async () => {
    const text = textOf(await local('/credentials'));
    expect(text).toMatch(
      /^DENIED: .*redirected to http:\/\/127\.0\.0\.1:\d+\/ok with a user name or password/,
    );
    expect(text).not.toContain(password);
  });

  it('refuses ports 0 and 65536 before connecting, and quotes a huge URL cut short', async () => {
    expect(textOf(await fetch('http://127.0.0.1:0/'))).toMatch(/^INVALID_ARGUMENTS: .*port 0/);
    expect(textOf(await fetch('http://127.0.0.1:65536/'))).toMatch(/^INVALID_ARGUMENTS: .*not a valid URL/);
    const long = textOf(await local(`/${'p'.repeat(200_000)}`));
    expect(long).toMatch(
      /^EXECUTION_FAILED: HTTP 4\d\d from http:\/\/127\.0\.0\.1:\d+\/p+\.\.\. \(2000\d\d characters\)/,
    );
    expect(long.length).toBeLessThan(1000);
  });

  it('follows 20 redirects only as far as allowed, and relative and protocol-relative ones', async () => {
    expect(textOf(await local('/hop/20'))).toMatch(
      /^EXECUTION_FAILED: more than 5 redirects, last to \/hop\/14/,
    );
    expect(okText(await local('/hop/5'))).toContain('landed');
    for (const path of ['/relative', '/protocol-relative']) {
      const result = await local(path);
      expect(okText(result)).toContain('ok body');
      expect(result.ok && (result.structured as { redirects: string[] }).redirects).toEqual([
        `http://127.0.0.1:${port}/ok`,
      ]);
    }
    expect(textOf(await local('/broken-location'))).toMatch(
      /^EXECUTION_FAILED: .*redirected to "http:\/\/\[::1", which is not a valid URL/,
    );
  });

  it('answers 204 and 304 with no content instead of calling them binary', async () => {
    for (const [path, status] of [
      ['/no-content', 204],
      ['/not-modified', 304],
    ] as const) {
      const text = okText(await local(path));
      expect(text).toContain(`Status: ${status}`);
      expect(text).toMatch(/\(no content\)$/);
    }
  });

  it('reports the HTTP status of an error page that is not text, and says what to do with a PDF', async () => {
    const missing = await local('/missing-binary');
    expect(textOf(missing)).toMatch(/^EXECUTION_FAILED: HTTP 404 from /);
    expect(textOf(missing)).toContain('(a body of application/octet-stream (10 B), not shown)');
    const failing = await local('/failing-untyped');
    expect(textOf(failing)).toMatch(/^EXECUTION_FAILED: HTTP 503 from /);
    expect(failing.ok === false && failing.error.retryable).toBe(true);
    expect(textOf(await local('/pdf'))).toMatch(
      /^INVALID_ARGUMENTS: .*is application\/pdf \(9 B\), not text or an image; .*curl -o/,
    );
  });

  it('stops reading an endless body at the byte cap and ends a slow one at the timeout', async () => {
    const endless = await local('/endless');
    expect(okText(endless)).toContain('(body cut at 977 KB)');
    expect(endless.ok && (endless.structured as { truncated: boolean }).truncated).toBe(true);
    for (let wait = 0; wait < 100 && !endlessClosed; wait++)
      await new Promise((done) => setTimeout(done, 50));
    expect(endlessClosed).toBe(true);
    expect(textOf(await local('/slowloris'))).toMatch(/^TIMEOUT: no complete response within 2000 ms/);
  });
});
