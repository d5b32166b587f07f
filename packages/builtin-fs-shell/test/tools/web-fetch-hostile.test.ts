import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { context, okText, textOf } from '../helpers/index.js';
import { usePageServer } from '../helpers/page-server.js';

// Hostile servers: compressed bodies that stall, break or explode, lying lengths.

const zeros = Buffer.alloc(64 * 1024 * 1024, 'a');
const bombs = {
  gzip: gzipSync(zeros),
  deflate: deflateSync(zeros),
  br: brotliCompressSync(zeros),
};

const page = usePageServer(
  (request, response) => {
    const url = request.url ?? '/';
    const bomb = /^\/bomb-(gzip|deflate|br)$/.exec(url);
    if (bomb) {
      const encoding = bomb[1] as keyof typeof bombs;
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding });
      response.end(bombs[encoding]);
    } else if (url === '/gzip-stall') {
      // A gzip body that starts, then never goes on.
      const body = gzipSync('first words '.repeat(1000));
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.write(body.subarray(0, 200));
    } else if (url === '/gzip-broken') {
      // A gzip body whose connection breaks half way.
      const body = gzipSync('first words '.repeat(1000));
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.write(body.subarray(0, 200), () => setTimeout(() => request.socket.destroy(), 50));
    } else if (url === '/gzip-corrupt') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.end(Buffer.from('this is not gzip at all'));
    } else if (url === '/gzip-then-br') {
      // Encodings listed in the order they were applied: gzip first, then br.
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, br' });
      response.end(brotliCompressSync(gzipSync('twice packed words')));
    } else if (url === '/gzip-3000-times') {
      // 3000 stacked encodings fit in 16 KiB of headers: one decompressor each, before a byte.
      response.writeHead(200, {
        'content-type': 'text/plain',
        'content-encoding': Array(3000).fill('gzip').join(','),
      });
      response.end(gzipSync('never unpacked'));
    } else if (url === '/gzip-5-times') {
      let body = Buffer.from('five times packed');
      for (let round = 0; round < 5; round++) body = gzipSync(body);
      response.writeHead(200, {
        'content-type': 'text/plain',
        'content-encoding': 'gzip, gzip, gzip, gzip, gzip',
      });
      response.end(body);
    } else if (url === '/zstd') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'zstd' });
      response.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 0x11, 0x00, 0x00]));
    } else if (url === '/redirect-data') {
      response.writeHead(302, { location: 'data:text/plain,hello' });
      response.end();
    } else if (url === '/short-length') {
      // Says 1000 bytes, sends 10 and closes.
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      response.write('ten bytes.', () => setTimeout(() => request.socket.destroy(), 50));
    } else if (url === '/huge-headers') {
      // 64 KiB of headers: past what the client accepts (16 KiB), on every try.
      response.writeHead(200, { 'content-type': 'text/plain', 'x-filler': 'f'.repeat(64 * 1024) });
      response.end('never read');
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('unknown');
    }
  },
  { maxBytes: 100_000, timeoutMs: 1500 },
);

const fetch = (path: string) => page.provider.execute('web_fetch', { url: page.url(path) }, context());

describe('web_fetch against hostile servers', () => {
  it('cuts a decompression bomb at the byte cap, for gzip, deflate and br', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const result = await fetch(`/bomb-${encoding}`);
      expect(okText(result)).toMatch(/\(body cut at 98 KB\)/);
      expect(result.ok && (result.structured as { truncated: boolean }).truncated).toBe(true);
    }
  });

  it('times out on a compressed body that stalls, instead of hanging', { timeout: 20_000 }, async () => {
    expect(textOf(await fetch('/gzip-stall'))).toMatch(/^TIMEOUT: no complete response within 1500 ms/);
  });

  it('fails a compressed body whose connection breaks, instead of hanging', { timeout: 20_000 }, async () => {
    expect(textOf(await fetch('/gzip-broken'))).toMatch(/^EXECUTION_FAILED: could not fetch/);
  });

  it('fails a body that is not the encoding it claims', async () => {
    expect(textOf(await fetch('/gzip-corrupt'))).toMatch(/^EXECUTION_FAILED: could not fetch/);
  });

  it('decodes stacked encodings in reverse order of listing', async () => {
    expect(okText(await fetch('/gzip-then-br'))).toContain('twice packed words');
  });

  it('undoes 5 stacked encodings and refuses 3000 without making a decompressor for each', async () => {
    expect(okText(await fetch('/gzip-5-times'))).toContain('five times packed');
    const result = await fetch('/gzip-3000-times');
    expect(textOf(result)).toMatch(
      /^EXECUTION_FAILED: .*content-encoding that lists 3000 encodings; web_fetch undoes at most 5/,
    );
    expect(result.ok === false && result.error.retryable).toBe(false);
  });

  it('fails an encoding it cannot decode instead of returning the compressed bytes as text', async () => {
    const text = textOf(await fetch('/zstd'));
    expect(text).toMatch(/^EXECUTION_FAILED: .*content-encoding "zstd"/);
  });

  it('refuses a redirect to a scheme other than http(s) as DENIED, naming the redirect', async () => {
    const text = textOf(await fetch('/redirect-data'));
    expect(text).toMatch(/^DENIED: .*redirected to data:/);
  });

  it('fails a body shorter than its content-length', async () => {
    expect(textOf(await fetch('/short-length'))).toMatch(/^EXECUTION_FAILED: could not fetch/);
  });

  it('fails headers larger than the client accepts as not worth retrying, saying so', async () => {
    const result = await fetch('/huge-headers');
    expect(textOf(result)).toMatch(/^EXECUTION_FAILED: .*headers .*larger than/i);
    expect(result.ok === false && result.error.retryable).toBe(false);
  });
});
