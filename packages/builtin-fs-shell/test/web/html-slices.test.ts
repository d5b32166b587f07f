import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, failure, makeTempDir, okText } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';
import { HTML_SLICE_CHARS, htmlToReadable } from '../../src/web/convert.js';

// A big page is converted in slices, giving the event loop back between them: other calls go
// on meanwhile, and the call's signal (its timeout or a cancel) ends the conversion. Text that spans slices
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
    } else if (across[url] !== undefined) html(across[url] as string);
    else response.writeHead(404).end();
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const webFetch = { allowPrivate: true, maxBytes: 16 * 1024 * 1024, maxChars: 1_000_000 };
  provider = createBuiltinProvider({ workspace: dir, webFetch: { ...webFetch, timeoutMs: 120_000 } });
});

afterAll(async () => {
  await provider?.close?.();
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
  // Counted in turns of the event loop, not in time: how long a conversion takes depends on
  // the machine (a 1 s timeout against the 12 MB page can lose the race on a fast host).
  it('gives the event loop turns while a 12 MB page converts', async () => {
    let converting = true;
    let turns = 0;
    const tick = (): void => {
      if (!converting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const result = await htmlToReadable(
      BIG.toString('utf8'),
      'markdown',
      1_000_000,
      new AbortController().signal,
    );
    converting = false;
    // One turn at least between each two of its ~730 slices (a conversion in one go gives 0).
    expect(turns).toBeGreaterThan(BIG.length / HTML_SLICE_CHARS / 2);
    expect(result.text.startsWith('Some words of a paragraph.\n\nSome words')).toBe(true);
  });

  it('stops between slices once its signal aborts', async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort(new Error('stopped by the test')));
    await expect(
      htmlToReadable(BIG.toString('utf8'), 'markdown', 1_000_000, controller.signal),
    ).rejects.toThrow('stopped by the test');
  });

  it('answers CANCELLED when the call is cancelled as the page comes', async () => {
    const controller = new AbortController();
    const call = provider.execute(
      'web_fetch',
      { url: url('/big') },
      context('s1', { signal: controller.signal }),
    );
    await bigSent;
    controller.abort();
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
