import { describe, expect, it } from 'vitest';
import { context, okText, textOf } from '../helpers/index.js';
import { usePageServer } from '../helpers/page-server.js';

// URLs a hostile user sends and redirects a hostile server answers with: credentials, odd
// ports, huge URLs, redirects of every shape.

const password = `pw-${Math.random().toString(36).slice(2)}`;

const page = usePageServer(
  (request, response) => {
    const url = request.url ?? '/';
    const hops = /^\/hop\/(\d+)$/.exec(url);
    if (hops) {
      const left = Number(hops[1]);
      if (left > 0) response.writeHead(302, { location: `/hop/${left - 1}` }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
    } else if (url === '/ok') response.writeHead(200, { 'content-type': 'text/plain' }).end('ok body');
    else if (url === '/protocol-relative')
      response.writeHead(301, { location: `//${request.headers.host}/ok` }).end();
    else if (url === '/relative') response.writeHead(307, { location: 'ok' }).end();
    else if (url === '/credentials')
      response.writeHead(302, { location: `http://bob:${password}@${request.headers.host}/ok` }).end();
    else if (url === '/broken-location') response.writeHead(302, { location: 'http://[::1' }).end();
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('unknown');
  },
  { maxBytes: 1_000_000, timeoutMs: 2000 },
);

const fetch = (url: string) => page.provider.execute('web_fetch', { url }, context());
const local = (path: string) => fetch(page.url(path));

describe('web_fetch with hostile URLs and redirects', () => {
  it('never repeats a password from a URL, valid or not, in its answer', async () => {
    for (const url of [
      `http://alice:${password}@127.0.0.1:99999/`,
      `http://alice:${password}@exa mple.com/`,
      page.url('/ok').replace('http://', `http://alice:${password}@`),
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
        page.url('/ok'),
      ]);
    }
    expect(textOf(await local('/broken-location'))).toMatch(
      /^EXECUTION_FAILED: .*redirected to "http:\/\/\[::1", which is not a valid URL/,
    );
  });
});
