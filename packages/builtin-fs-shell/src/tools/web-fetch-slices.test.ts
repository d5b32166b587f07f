import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, failure, makeTempDir, okText } from '../../test/helpers.js';
import { type BuiltinProvider, createBuiltinProvider } from '../provider.js';

// A big page is converted in slices, giving the event loop back between them: other calls go
// on meanwhile, and the call's timeout or cancel ends the conversion. Text that spans slices
// comes out exactly as if converted in one piece.

const paragraphs = (bytes: number): Buffer =>
  Buffer.from('<p>Some words of a paragraph.</p>'.repeat(Math.ceil(bytes / 32)));
/** 12 MB of paragraphs: seconds of conversion. */
const BIG = paragraphs(12_000_000);

const across: Record<string, string> = {
  '/underscores': `<p>${'a_'.repeat(100_000)}</p>`,
  '/stars': `<p>${'*'.repeat(100_000)}</p>`,
  '/astral': `<p>${'\u{1d400}_'.repeat(50_000)}</p>`,
  '/words': `<p>${'word '.repeat(100_000)}</p>`,
  '/cell': `<table><tr><td>${'a|_'.repeat(50_000)}</td></tr></table>`,
  '/pre': `<pre>\n${'line\r\n'.repeat(50_000)}</pre>`,
  '/huge-alt': `<p><img alt="${'a '.repeat(1_000_000)}"> after</p>`,
  '/huge-href': `<p><a href="/${'x'.repeat(100_000)}">linked</a> <a href="/${'y'.repeat(65_000)}">kept</a></p>`,
};

let server: Server;
let port: number;
let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;
let impatient: BuiltinProvider;
/** Resolved when the big page's last byte has been handed to the socket. */
let bigSent: Promise<void> = Promise.resolve();

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-web-slices-'));
  server = createServer((request, response) => {
    const url = request.url ?? '';
    const html = (body: string | Buffer): void => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    };
    if (url === '/big') {
      bigSent = new Promise((resolve) => response.once('finish', () => resolve()));
      html(BIG);
    } else if (url === '/small-after-big') {
      // Sent once the big page is on its way and its conversion has begun.
      void bigSent.then(() => setTimeout(() => html('<p>small page</p>'), 300));
    } else if (across[url] !== undefined) html(across[url] as string);
    else response.writeHead(404).end();
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const webFetch = { allowPrivate: true, maxBytes: 16 * 1024 * 1024, maxChars: 1_000_000 };
  provider = createBuiltinProvider({ workspace: dir, webFetch: { ...webFetch, timeoutMs: 120_000 } });
  impatient = createBuiltinProvider({ workspace: dir, webFetch: { ...webFetch, timeoutMs: 1000 } });
});

afterAll(async () => {
  await provider?.close?.();
  await impatient?.close?.();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup();
});

const url = (path: string): string => `http://127.0.0.1:${port}${path}`;

/** The converted page, without the URL/status/type header. */
async function body(path: string, format: 'markdown' | 'text' = 'markdown'): Promise<string> {
  const text = okText(await provider.execute('web_fetch', { url: url(path), format }, context()));
  return text.slice(text.indexOf('\n\n') + 2);
}

describe('web_fetch converts a big page in slices', { timeout: 120_000 }, () => {
  it('answers another call while a 12 MB page converts', async () => {
    const finished: string[] = [];
    const big = provider.execute('web_fetch', { url: url('/big') }, context()).then((result) => {
      finished.push('big');
      return result;
    });
    const small = provider
      .execute('web_fetch', { url: url('/small-after-big') }, context('s2'))
      .then((result) => {
        finished.push('small');
        return result;
      });
    expect(okText(await small)).toMatch(/\n\nsmall page$/);
    expect(okText(await big)).toContain('Some words of a paragraph.\n\nSome words');
    expect(finished).toEqual(['small', 'big']);
  });

  it("ends the conversion at the call's timeout", async () => {
    const error = failure(await impatient.execute('web_fetch', { url: url('/big') }, context()));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('1000 ms');
  });

  it('ends the conversion when the call is cancelled', async () => {
    const controller = new AbortController();
    const call = provider.execute(
      'web_fetch',
      { url: url('/big') },
      context('s1', { signal: controller.signal }),
    );
    await bigSent;
    setTimeout(() => controller.abort(), 300);
    expect(failure(await call).code).toBe('CANCELLED');
  });

  it('writes text that spans slices as one piece would be written', async () => {
    expect(await body('/underscores')).toBe(`${'a_'.repeat(99_999)}a\\_`);
    expect(await body('/stars')).toBe('\\*'.repeat(100_000));
    expect(await body('/astral')).toBe(`${'\u{1d400}_'.repeat(49_999)}\u{1d400}\\_`);
    expect(await body('/words')).toBe('word '.repeat(100_000).trim());
    expect(await body('/cell')).toBe(`| ${'a\\|\\_'.repeat(50_000)} |\n| --- |`);
    expect(await body('/cell', 'text')).toBe('a|_'.repeat(50_000));
    expect(await body('/pre')).toBe(`\`\`\`\n${'line\n'.repeat(50_000)}\`\`\``);
    expect(await body('/pre', 'text')).toBe('line\n'.repeat(50_000).trimEnd());
  });

  it('cuts an alt text at 2000 characters and shows a link with a target over 64 Ki as its text', async () => {
    const alt = Array.from({ length: 1000 }, () => 'a').join(' ');
    for (const format of ['markdown', 'text'] as const)
      expect(await body('/huge-alt', format)).toBe(`${alt} after`);
    expect(await body('/huge-href')).toBe(`linked [kept](/${'y'.repeat(65_000)})`);
    expect(await body('/huge-href', 'text')).toBe('linked kept');
  });
});
