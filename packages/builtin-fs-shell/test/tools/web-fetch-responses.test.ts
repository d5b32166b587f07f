import { describe, expect, it } from 'vitest';
import { context, okText, textOf } from '../helpers/index.js';
import { usePageServer } from '../helpers/page-server.js';

// Answers of a hostile server that are not a plain page: empty answers, error pages that are
// not text, endless and trickling bodies.

let endlessClosed = false;

const page = usePageServer(
  (request, response) => {
    const url = request.url ?? '/';
    if (url === '/no-content') response.writeHead(204).end();
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
  },
  { maxBytes: 1_000_000, timeoutMs: 2000 },
);

const fetch = (url: string) => page.provider.execute('web_fetch', { url }, context());
const local = (path: string) => fetch(page.url(path));

describe('web_fetch with empty, non-text and endless responses', () => {
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
