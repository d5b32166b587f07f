import { describe, expect, it } from 'vitest';
import { context, okText } from '../helpers/index.js';
import { usePageServer } from '../helpers/page-server.js';
import { MAX_HTML_DEPTH } from '../../src/web/depth-bound-parser.js';

// Pages nested past MAX_HTML_DEPTH (real "div soup" reaches it): the elements deeper than the
// bound are flattened into the text of the element they are in, instead of refusing the page.

const deep = 100_000;
const pages: Record<string, () => string> = {
  '/unclosed-divs': () => `<html><body>${'<div>'.repeat(deep)}deep</body></html>`,
  '/unclosed-spans': () => `<p>${'<span><b>'.repeat(deep / 2)}deep`,
  '/nested-closed': () => `${'<div>'.repeat(deep)}deep${'</div>'.repeat(deep)}after`,
  '/words-at-every-level': () => `${'<div>w '.repeat(deep)}end`,
  '/hidden-deep': () =>
    `${'<div>'.repeat(300)}<script>secret()</script><style>.x{}</style>shown<svg><text>drawn</text></svg> too`,
  '/inline-deep': () => `${'<span>'.repeat(300)}a<b>bold</b>c <a href="/x">link</a>`,
  '/ancestor-closes': () => `<div>outer<section>${'<div>'.repeat(1000)}inner</section>tail</div>after`,
  '/blocks-deep': () => `${'<div>'.repeat(300)}<p>one</p><p>two</p><li>three</li>`,
};

const web = usePageServer(
  (request, response) => {
    const make = pages[request.url ?? ''];
    if (!make) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(make());
  },
  { maxChars: 1_000_000, timeoutMs: 60_000 },
);

const fetch = (path: string, format: 'markdown' | 'text' = 'markdown') =>
  web.provider.execute('web_fetch', { url: web.url(path), format }, context());

/** The converted page, without the URL/status/type header. */
async function body(path: string, format: 'markdown' | 'text' = 'markdown'): Promise<string> {
  return okText(await fetch(path, format))
    .split('\n\n')
    .slice(1)
    .join('\n\n');
}

const FORMATS = ['markdown', 'text'] as const;

describe('web_fetch on pages nested deeper than the converter keeps elements', { timeout: 120_000 }, () => {
  it('converts 100 000 nested elements, closed or not, keeping their text', async () => {
    expect(MAX_HTML_DEPTH).toBe(256);
    for (const format of FORMATS) {
      expect(await body('/unclosed-divs', format)).toBe('deep');
      expect(await body('/unclosed-spans', format)).toBe(
        format === 'markdown' ? `${'**'.repeat(127)}deep${'**'.repeat(127)}` : 'deep',
      );
      // The end tags of the flattened elements close them, not the elements they are in.
      expect(await body('/nested-closed', format)).toBe('deep\nafter');
    }
  });

  it('keeps every word of 100 000 levels, as lines down to the bound and spaced after it', async () => {
    for (const format of FORMATS) {
      const text = await body('/words-at-every-level', format);
      const lines = text.split('\n');
      expect(text.match(/\bw\b/g)?.length).toBe(deep);
      expect(text.endsWith('w end')).toBe(true);
      // One line per level kept (the root frame and <html>/<body> are not elements here).
      expect(lines.length).toBe(MAX_HTML_DEPTH);
      expect(lines.at(-1)?.split(' ').length).toBe(deep - MAX_HTML_DEPTH + 2);
    }
  });

  it('still hides scripts, styles and drawings flattened past the bound', async () => {
    for (const format of FORMATS) {
      const text = await body('/hidden-deep', format);
      expect(text).toBe('shown too');
    }
  });

  it('writes flattened inline elements as their text and flattened blocks spaced', async () => {
    expect(await body('/inline-deep')).toBe('aboldc link');
    expect(await body('/inline-deep', 'text')).toBe('aboldc link');
    for (const format of FORMATS) expect(await body('/blocks-deep', format)).toBe('one two three');
  });

  it('closes flattened elements with the element they are in', async () => {
    for (const format of FORMATS)
      expect(await body('/ancestor-closes', format)).toBe('outer\ninner\ntail\nafter');
  });
});
