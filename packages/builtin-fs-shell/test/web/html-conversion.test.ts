import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

// Hostile pages: markup built so that a converter does super-linear work or recurses deeply.
// Tree-building converters take minutes on some of these (unclosed nested tags, many comments,
// big tables, many <br>); each must come back converted, never hang.

const pages: Record<string, () => string> = {
  '/deep-but-converted': () => `${'<div>'.repeat(250)}deep enough`,
  '/comments': () => `<p>${'<!-- c -->w'.repeat(100_000)}</p><p>after comments</p>`,
  '/comment-opens': () => `<p>before</p>${'<!--'.repeat(250_000)}`,
  '/unclosed-comment': () => `<p>before</p><!--${'a'.repeat(1_000_000)}`,
  '/unclosed-cdata': () => `<p>before</p><![CDATA[${'a'.repeat(1_000_000)}`,
  '/big-attribute': () => `<p><a href="/x" title="${'t'.repeat(10_000_000)}">linked</a> after</p>`,
  '/unclosed-attribute': () => `<p>before</p><a href="${'x'.repeat(1_000_000)}`,
  '/less-than': () => `<p>${'<'.repeat(1_000_000)}</p>`,
  '/ampersands': () => `<p>${'&'.repeat(500_000)}${'&amp'.repeat(100_000)}</p>`,
  '/table': () =>
    `<table><tr><th>a</th><th>b</th></tr>${'<tr><td>1</td><td>2</td></tr>'.repeat(50_000)}</table>`,
  '/line-breaks': () => `<p>a${'<br>'.repeat(200_000)}b</p>`,
  '/whitespace': () => `<p>a${' \n\t'.repeat(1_000_000)}b</p>`,
  '/structure':
    () => `<title>Tab title</title><h1>Title</h1><p>Use <code>a*b</code>, snake_case and *stars*.</p>
<ul><li>one</li><li>two<ul><li>nested <b>bold </b>tail</li></ul></li></ul><ol start="3"><li>three<li>four</ol>
<blockquote><p>quoted</p><p>again</p></blockquote><pre>
line 1
  indented

after a blank line
</pre><table><tr><th>Name</th><th>Value</th></tr><tr><td>a|b</td><td>2<br>x</td></tr></table>
<p><img src="/i.png" alt="pic"> <img src="data:image/png;base64,AAAA" alt="inline"> <a href="javascript:void(0)">js</a><a href="/e"></a>
end<br>next</p><p>1. not a list</p>`,
  '/metas': () => `<head>${'<meta charset="utf-8">'.repeat(100_000)}</head><body><p>body text</p></body>`,
};

let server: Server;
let port: number;
let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;
const built = new Map<string, Buffer>();

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-web-pages-'));
  server = createServer((request, response) => {
    const make = pages[request.url ?? ''];
    if (!make) {
      response.writeHead(404).end();
      return;
    }
    let body = built.get(request.url as string);
    if (!body) {
      body = Buffer.from(make());
      built.set(request.url as string, body);
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  // Conversions hold this process (the server's too) for a while under load.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  provider = createBuiltinProvider({
    workspace: dir,
    webFetch: { allowPrivate: true, maxBytes: 12 * 1024 * 1024, timeoutMs: 60_000 },
  });
});

afterAll(async () => {
  await provider?.close?.();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup();
});

const fetch = (path: string, format: 'markdown' | 'text' = 'markdown', max_chars?: number) =>
  provider.execute('web_fetch', { url: `http://127.0.0.1:${port}${path}`, format, max_chars }, context());

const FORMATS = ['markdown', 'text'] as const;

describe('web_fetch on pages built to make the converter work hard', { timeout: 120_000 }, () => {
  it('converts a page nested 250 deep with every level kept (deeper: html-depth.test.ts)', async () => {
    for (const format of FORMATS)
      expect(okText(await fetch('/deep-but-converted', format))).toMatch(/\n\ndeep enough$/);
  });

  it('drops comments, closed or not, and CDATA as browsers do', async () => {
    for (const format of FORMATS) {
      const comments = okText(await fetch('/comments', format, 100));
      expect(comments).toContain('(cut at 100 of 100016 characters)');
      expect(comments).not.toContain('<!--');
      for (const path of ['/comment-opens', '/unclosed-comment', '/unclosed-cdata'])
        expect(okText(await fetch(path, format))).toMatch(/\n\nbefore$/);
    }
  });

  it('reads past a 10 MB attribute and leaves an unclosed tag out', async () => {
    expect(okText(await fetch('/big-attribute'))).toMatch(/\n\n\[linked\]\(\/x\) after$/);
    expect(okText(await fetch('/big-attribute', 'text'))).toMatch(/\n\nlinked after$/);
    expect(okText(await fetch('/unclosed-attribute'))).toMatch(/\n\nbefore$/);
  });

  it('keeps a megabyte of < and & as text', async () => {
    for (const format of FORMATS) {
      const less = okText(await fetch('/less-than', format, 1000));
      expect(less).toContain(`\n\n${'<'.repeat(1000)}\n\n(cut at 1000 of 1000000 characters)`);
      const ampersands = okText(await fetch('/ampersands', format, 1000));
      expect(ampersands).toContain('(cut at 1000 of 600000 characters)');
    }
  });

  it('converts a 50 000 row table and 200 000 line breaks', async () => {
    const table = okText(await fetch('/table', 'markdown', 1000));
    expect(table).toContain('| a | b |\n| --- | --- |\n| 1 | 2 |\n| 1 | 2 |');
    expect(table).toContain('of 500023 characters');
    expect(okText(await fetch('/table', 'text', 1000))).toContain('a | b\n1 | 2\n1 | 2');
    for (const format of FORMATS) {
      const breaks = okText(await fetch('/line-breaks', format, 1000));
      expect(breaks).toContain('(cut at 1000 of 200002 characters)');
    }
  });

  it('collapses 3 MB of whitespace and skips 100 000 meta tags', async () => {
    for (const format of FORMATS) {
      expect(okText(await fetch('/whitespace', format))).toMatch(/\n\na b$/);
      expect(okText(await fetch('/metas', format))).toMatch(/\n\nbody text$/);
    }
  });

  it('marks headings, lists, quotes, code, tables, images and links in markdown, none of it in text', async () => {
    expect(okText(await fetch('/structure'))).toContain(
      [
        '# Title',
        '',
        'Use `a*b`, snake_case and \\*stars\\*.',
        '',
        '* one',
        '* two',
        '  * nested **bold** tail',
        '',
        '3. three',
        '4. four',
        '',
        '> quoted',
        '>',
        '> again',
        '',
        '```',
        'line 1',
        '  indented',
        '',
        'after a blank line',
        '```',
        '',
        '| Name | Value |',
        '| --- | --- |',
        '| a\\|b | 2 x |',
        '',
        '![pic](/i.png) inline js end',
        'next',
        '',
        '1\\. not a list',
      ].join('\n'),
    );
    expect(okText(await fetch('/structure'))).not.toContain('Tab title');
    const text = okText(await fetch('/structure', 'text'));
    expect(text).not.toContain('Tab title');
    expect(text).toContain(
      'Title\n\nUse a*b, snake_case and *stars*.\n\none\ntwo\nnested bold tail\n\nthree',
    );
    expect(text).toContain('Name | Value\na|b | 2 x\n\npic inline js end\nnext\n\n1. not a list');
  });
});
