import { describe, expect, it } from 'vitest';
import { context, okText } from '../helpers/index.js';
import { usePageServer } from '../helpers/page-server.js';

// Pages whose charset declarations disagree. The order is the browsers': a byte order mark,
// then the Content-Type header, then a <meta> tag, then UTF-8; a name no decoder knows is passed over.

const utf16le = (text: string): Buffer =>
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer => {
  const little = Buffer.from(text, 'utf16le');
  return Buffer.concat([Buffer.from([0xfe, 0xff]), little.swap16()]);
};
const html = (head: string, body: string): string =>
  `<html><head>${head}</head><body><p>${body}</p></body></html>`;

/** Every byte but the control characters (0x80-0x9F included), then 64 KiB of 0x80-0x9F. */
const EVERY_BYTE = Buffer.from([...Array(256).keys()].filter((byte) => byte >= 0x20 && byte !== 0x7f));
const HIGH_RUN = Buffer.from(Array.from({ length: 1 << 16 }, (_, index) => 0x80 + (index % 32)));
/** What browsers show for 0x80-0x9F in windows-1252 (WHATWG index; 5 bytes stay controls). */
const HIGH_TEXT = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

const pages: Record<string, [string, Buffer]> = {
  '/every-byte-1252': ['text/plain; charset=windows-1252', Buffer.concat([EVERY_BYTE, HIGH_RUN])],
  // Header says latin-1, meta says UTF-8: the header wins.
  '/header-over-meta': [
    'text/html; charset=iso-8859-1',
    Buffer.from(html('<meta charset="utf-8">', 'caf\xe9'), 'latin1'),
  ],
  // A UTF-16LE byte order mark beats both the header's and the meta's UTF-8.
  '/bom-over-header': ['text/html; charset=utf-8', utf16le(html('<meta charset="utf-8">', 'naïve ☃'))],
  '/bom-utf16be-plain': ['text/plain', utf16be('big end ☃ first')],
  '/bom-utf8-over-latin1': [
    'text/plain; charset=iso-8859-1',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('crème ☃')]),
  ],
  // A header charset no decoder knows is passed over for the meta tag.
  '/unknown-header': [
    'text/html; charset=no-such-charset',
    Buffer.from(html('<meta charset="windows-1252">', 'na\xefve \x80'), 'latin1'),
  ],
  // The first meta names an unknown charset, the second a known one.
  '/unknown-then-known-meta': [
    'text/html',
    Buffer.from(html('<meta charset="bogus"><meta charset="iso-8859-1">', 'se\xf1or'), 'latin1'),
  ],
  // http-equiv form of the declaration.
  '/http-equiv': [
    'text/html',
    Buffer.from(
      html('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', '\x93quoted\x94'),
      'latin1',
    ),
  ],
  // A meta tag readable as ASCII cannot be right about UTF-16: UTF-8, as browsers take it.
  '/meta-utf16': ['text/html', Buffer.from(html('<meta charset="utf-16">', 'ascii and ☃'))],
  // Nothing known anywhere: UTF-8.
  '/unknown-everywhere': [
    'text/html; charset=x-nothing',
    Buffer.from(html('<meta charset="also-nothing">', 'plain ☃')),
  ],
  // UTF-16 without a mark, declared in the header.
  '/utf16-header': ['text/plain; charset=utf-16le', Buffer.from('sixteen ☃', 'utf16le')],
};

const web = usePageServer((request, response) => {
  const page = pages[request.url ?? ''];
  if (!page) response.writeHead(404).end();
  else response.writeHead(200, { 'content-type': page[0] }).end(page[1]);
});

async function fetchCharset(path: string): Promise<{ text: string; charset: unknown }> {
  const result = await web.provider.execute('web_fetch', { url: web.url(path), format: 'text' }, context());
  const text = okText(result);
  return { text, charset: result.ok ? (result.structured as { charset?: unknown }).charset : undefined };
}

describe('web_fetch picks the charset as browsers do: byte order mark, header, meta, UTF-8', () => {
  it.each([
    ['/header-over-meta', 'café', 'windows-1252'],
    ['/bom-over-header', 'naïve ☃', 'utf-16le'],
    ['/bom-utf16be-plain', 'big end ☃ first', 'utf-16be'],
    ['/bom-utf8-over-latin1', 'crème ☃', 'utf-8'],
    ['/unknown-header', 'naïve €', 'windows-1252'],
    ['/unknown-then-known-meta', 'señor', 'windows-1252'],
    ['/http-equiv', '“quoted”', 'windows-1252'],
    ['/meta-utf16', 'ascii and ☃', 'utf-8'],
    ['/unknown-everywhere', 'plain ☃', 'utf-8'],
    ['/utf16-header', 'sixteen ☃', 'utf-16le'],
  ])('%s reads %s (%s)', async (path, expected, charset) => {
    const page = await fetchCharset(path);
    expect(page.text).toContain(`\n\n${expected}`);
    expect(page.text).not.toContain('\ufeff');
    expect(page.charset).toBe(charset);
  });
});

describe('web_fetch decodes windows-1252 with its own table', () => {
  it('maps every byte, and 64 KiB of 0x80-0x9F, as browsers do', async () => {
    const result = await web.provider.execute('web_fetch', { url: web.url('/every-byte-1252') }, context());
    const text = okText(result).split('\n\n').slice(1).join('\n\n');
    let ascii = '';
    for (let code = 0x20; code < 0x7f; code++) ascii += String.fromCharCode(code);
    let latin = '';
    for (let code = 0xa0; code <= 0xff; code++) latin += String.fromCharCode(code);
    expect(HIGH_TEXT.length).toBe(32);
    expect(text).toBe(`${ascii}${HIGH_TEXT}${latin}${HIGH_TEXT.repeat(1 << 11)}`);
  });
});
