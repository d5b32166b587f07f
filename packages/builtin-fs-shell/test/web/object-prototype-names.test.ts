import { describe, expect, it } from 'vitest';
import { context, okText, textOf } from '../helpers/index.js';
import { usePageServer } from '../helpers/page-server.js';

// Names a page or a server chooses that are also names of Object.prototype's members: element
// names looked up in the converter's tables, response header names in the client's.

const pages: Record<string, { headers: string[]; body: string }> = {
  '/element-names': {
    headers: ['content-type', 'text/html'],
    body: '<p>a<constructor>b</constructor>c<tostring>d</tostring>e<valueof>f</valueof>g</p>',
  },
  '/header-names': {
    headers: ['__proto__', 'x', 'content-type', 'text/plain', 'constructor', 'y', 'toString', 'z'],
    body: 'plain words',
  },
  '/header-names-first': {
    headers: ['constructor', 'y', '__proto__', 'x', 'content-type', 'text/html; charset=utf-8'],
    body: '<p>typed</p>',
  },
  '/redirect-with-keys': {
    headers: ['__proto__', 'x', 'location', '/header-names', 'hasOwnProperty', 'y'],
    body: '',
  },
};

const web = usePageServer((request, response) => {
  const url = request.url ?? '';
  const page = pages[url];
  if (url === '/many-headers') {
    const headers = ['content-type', 'text/plain'];
    for (let index = 0; index < 10_000; index++) headers.push(`x-${index}`, 'v');
    response.writeHead(200, headers).end('many');
  } else if (url === '/many-same-headers') {
    const headers = ['content-type', 'text/plain'];
    for (let index = 0; index < 2000; index++) headers.push('x', 'v');
    response.writeHead(200, headers).end('same name');
  } else if (page) {
    response.writeHead(url.startsWith('/redirect') ? 302 : 200, page.headers).end(page.body);
  } else response.writeHead(404).end();
});

const fetch = (path: string, format: 'markdown' | 'text' = 'markdown') =>
  web.provider.execute('web_fetch', { url: web.url(path), format }, context());

describe('web_fetch and names of Object.prototype members', { timeout: 60_000 }, () => {
  it('treats elements named constructor, tostring, valueof as unknown inline elements', async () => {
    for (const format of ['markdown', 'text'] as const)
      expect(okText(await fetch('/element-names', format))).toMatch(/\n\nabcdefg$/);
  });

  it('reads the content type past response headers named __proto__ or constructor', async () => {
    expect(okText(await fetch('/header-names'))).toMatch(/Content-Type: text\/plain\n\nplain words$/);
    expect(okText(await fetch('/header-names-first'))).toMatch(/Content-Type: text\/html\n\ntyped$/);
    const redirected = await fetch('/redirect-with-keys');
    expect(okText(redirected)).toMatch(/\n\nplain words$/);
    expect(redirected.ok && redirected.structured).toMatchObject({
      redirects: [web.url('/header-names')],
    });
  });

  it('answers 10 000 response headers as too large, and 2000 of one name as a page', async () => {
    const many = textOf(await fetch('/many-headers'));
    expect(many).toMatch(/^EXECUTION_FAILED: could not fetch .*the response headers are larger/);
    expect(okText(await fetch('/many-same-headers'))).toMatch(/\n\nsame name$/);
  });
});
