import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const HTML = `<!doctype html><html><head><title>Guide</title><style>body{color:red}</style>
<script>window.secret = 1</script></head><body><h1>Hello guide</h1>
<p>Read the <a href="/docs">documentation</a> first.</p><ul><li>one</li><li>two</li></ul></body></html>`;

let server: Server;
let port: number;
let requests = 0;
const resets = new Set<string>();
let dir: string;
let cleanup: () => Promise<void>;
let open: BuiltinProvider;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-web-'));
  server = createServer((request, response) => {
    requests++;
    const url = request.url ?? '/';
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ): void => {
      response.writeHead(status, { 'content-type': type, ...headers });
      response.end(body);
    };
    if (url === '/html') send(200, 'text/html; charset=utf-8', HTML);
    else if (url === '/json') send(200, 'application/json', '{"a":1}');
    else if (url === '/latin1') send(200, 'text/plain; charset=iso-8859-1', Buffer.from('caf\xe9', 'latin1'));
    else if (url === '/meta-charset')
      send(
        200,
        'text/html',
        Buffer.from(
          '<html><head><meta charset="windows-1252"></head><body><p>na\xefve</p></body></html>',
          'latin1',
        ),
      );
    else if (url === '/gzip')
      send(200, 'text/plain', gzipSync('compressed words'), { 'content-encoding': 'gzip' });
    else if (url === '/image') send(200, 'image/png', PNG);
    else if (url === '/binary') send(200, 'application/octet-stream', Buffer.alloc(64));
    else if (url === '/big') send(200, 'text/plain', 'x'.repeat(50_000));
    else if (url === '/missing') send(404, 'text/plain', 'no such page');
    else if (url === '/redirect') send(302, 'text/plain', '', { location: '/html' });
    else if (url === '/redirect-loop') send(302, 'text/plain', '', { location: '/redirect-loop' });
    else if (url === '/redirect-file') send(302, 'text/plain', '', { location: 'file:///etc/passwd' });
    else if (url === '/slow') setTimeout(() => send(200, 'text/plain', 'late'), 5000);
    else if (url.startsWith('/reset-once')) {
      // The connection breaks before any response the first time a URL is asked for.
      if (resets.has(url)) send(200, 'text/plain', 'second try');
      else {
        resets.add(url);
        request.socket.destroy();
      }
    } else if (url === '/reset-always') request.socket.destroy();
    else send(404, 'text/plain', 'unknown');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  open = createBuiltinProvider({
    workspace: dir,
    webFetch: { allowPrivate: true, maxBytes: 20_000, timeoutMs: 1000 },
  });
});

afterAll(async () => {
  await open?.close?.();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup();
});

const fetch = (provider: BuiltinProvider, args: Record<string, unknown>) =>
  provider.execute('web_fetch', args, context());

describe('web_fetch against a loopback server (guard opened)', () => {
  it('turns HTML into markdown without scripts and styles', async () => {
    const text = okText(await fetch(open, { url: `http://127.0.0.1:${port}/html` }));
    expect(text).toContain('Status: 200');
    expect(text).toContain('# Hello guide');
    expect(text).toContain('[documentation](/docs)');
    expect(text).toMatch(/\* one\n\* two/);
    expect(text).not.toContain('window.secret');
    expect(text).not.toContain('color:red');
  });

  it('returns plain text, raw HTML, JSON, declared charsets and gzip bodies', async () => {
    const plain = okText(await fetch(open, { url: `http://127.0.0.1:${port}/html`, format: 'text' }));
    expect(plain).toContain('Hello guide');
    expect(plain).not.toContain('<h1>');
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/html`, format: 'html' }))).toContain(
      '<h1>Hello guide</h1>',
    );
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/json` }))).toContain('{"a":1}');
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/latin1` }))).toContain('café');
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/gzip` }))).toContain('compressed words');
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/meta-charset` }))).toContain('naïve');
  });

  it('returns images as image content and refuses other binary types', async () => {
    const image = await fetch(open, { url: `http://127.0.0.1:${port}/image` });
    expect(image.ok && image.content[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PNG.toString('base64'),
    });
    expect(textOf(await fetch(open, { url: `http://127.0.0.1:${port}/binary` }))).toMatch(
      /INVALID_ARGUMENTS: .*application\/octet-stream \(64 B\), not text or an image/,
    );
  });

  it('caps the body and the text', async () => {
    const big = await fetch(open, { url: `http://127.0.0.1:${port}/big` });
    expect(okText(big)).toContain('(body cut at 20 KB)');
    expect(big.ok && (big.structured as { truncated: boolean }).truncated).toBe(true);
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/big`, max_chars: 100 }))).toMatch(
      /\(cut at 100 of 20000 characters\)/,
    );
  });

  it('follows redirects, stops loops, refuses non-http targets', async () => {
    const redirected = await fetch(open, { url: `http://127.0.0.1:${port}/redirect` });
    expect(okText(redirected)).toContain('# Hello guide');
    expect(redirected.ok && (redirected.structured as { redirects: string[] }).redirects).toEqual([
      `http://127.0.0.1:${port}/html`,
    ]);
    expect(textOf(await fetch(open, { url: `http://127.0.0.1:${port}/redirect-loop` }))).toMatch(
      /more than 5 redirects/,
    );
    expect(textOf(await fetch(open, { url: `http://127.0.0.1:${port}/redirect-file` }))).toMatch(
      /^DENIED: .*redirected to file:\/\/\/etc\/passwd, which is not http or https/,
    );
  });

  it('reports HTTP errors, timeouts and bad URLs with stable codes', async () => {
    const missing = await fetch(open, { url: `http://127.0.0.1:${port}/missing` });
    expect(textOf(missing)).toMatch(/^EXECUTION_FAILED: HTTP 404/);
    expect(textOf(missing)).toContain('no such page');
    expect(textOf(await fetch(open, { url: `http://127.0.0.1:${port}/slow` }))).toMatch(
      /^TIMEOUT: no complete response within 1000 ms/,
    );
    expect(textOf(await fetch(open, { url: 'not a url' }))).toMatch(
      /INVALID_ARGUMENTS: "not a url" is not a valid URL/,
    );
    expect(textOf(await fetch(open, { url: 'ftp://127.0.0.1/' }))).toMatch(/only http and https/);
    expect(textOf(await fetch(open, { url: `http://user:pw@127.0.0.1:${port}/html` }))).toMatch(
      /user name or password/,
    );
    expect(textOf(await fetch(open, {}))).toMatch(/INVALID_ARGUMENTS/);
  });

  it('sends a GET again once when the connection breaks before a response, not more', async () => {
    const first = requests;
    expect(okText(await fetch(open, { url: `http://127.0.0.1:${port}/reset-once-a` }))).toContain(
      'second try',
    );
    expect(requests - first).toBe(2);
    const before = requests;
    const broken = await fetch(open, { url: `http://127.0.0.1:${port}/reset-always` });
    expect(textOf(broken)).toMatch(/^EXECUTION_FAILED: could not fetch/);
    expect(broken.ok === false && broken.error.retryable).toBe(true);
    expect(requests - before).toBe(2);
  });

  it('is cancelled by the call signal', async () => {
    const controller = new AbortController();
    const pending = open.execute(
      'web_fetch',
      { url: `http://127.0.0.1:${port}/slow` },
      context('s1', { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    expect(textOf(await pending)).toMatch(/^CANCELLED/);
  });
});
