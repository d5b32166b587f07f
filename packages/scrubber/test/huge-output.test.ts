import { type RegisteredTool, createToolContext, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { scrubberMiddleware } from '../src/middleware.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

// Sizes large enough that a catastrophically backtracking regex or a quadratic loop would not
// finish within the test timeout; the tests assert only the results.

const fake = createFakeSource();
const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
const SIZE = 4_000_000;
const repeatTo = (unit: string, length: number): string => unit.repeat(Math.ceil(length / unit.length));

describe('huge and hostile outputs', () => {
  const scrubber = createScrubber({ secrets: [fake.chars(ALPHABETS.alnum, 24)] });

  // Each filler must come through unchanged, and a token planted after it must be redacted.
  const fillers: [string, string][] = [
    ['JSON escapes of printable ASCII', repeatTo('\\u0041', SIZE)],
    ['JSON-escaped ESC without a sequence', repeatTo('\\u001b', SIZE)],
    ['percent-encoded separators', repeatTo('%3D%3A%40', SIZE)],
    ['ESC [ with parameters and no final byte', repeatTo('\x1b[0;1;2;3;4;5;6;7;8;9;', SIZE)],
    ['zero-width characters', repeatTo('\u200b', SIZE)],
    ['Cyrillic text', repeatTo('Съешь же ещё этих мягких французских булок ', SIZE)],
    ['escaped backslashes', repeatTo('\\\\', SIZE)],
    ['URL without @', `postgres://${repeatTo('a:', SIZE)}`],
    ['JWT header that never gets a payload', `eyJ${repeatTo('a', SIZE)}`],
    ['credential keys with empty values', repeatTo('tok\u200ben=\n', SIZE)],
    ["wget -d's report of a password option with no value", repeatTo('Setting --password (', 3 * SIZE)],
    [
      'HTTPie -a and smbclient -U with a user and no password',
      repeatTo('http -a alice smbclient -U bob ', 3 * SIZE),
    ],
  ];

  it.each(fillers)('%s: linear, unchanged, and the token after it redacted', (_label, filler) => {
    const { text, findings } = scrubber.scrub(`${filler} ${githubToken}\n`);
    expect(findings.at(-1)?.kind).toBe('github_token');
    expect(text.endsWith(' [REDACTED:github_token]\n')).toBe(true);
    expect(findings).toHaveLength(1);
    expect(text.slice(0, filler.length)).toBe(filler);
  });

  it('Cookie and Set-Cookie headers repeated on one 4 MB line: redacted to the line end, linear', () => {
    for (const header of ['Cookie: ', 'Set-Cookie: x=']) {
      const { text } = scrubber.scrub(`${repeatTo(header, SIZE)}\n${githubToken}\n`);
      // The last header's trailing space is not part of any value.
      expect(text).toBe(
        `${header}[REDACTED:cookie]${header.endsWith(' ') ? ' ' : ''}\n[REDACTED:github_token]\n`,
      );
    }
  });

  it('redacts 200,000 findings in one 4 MB result through the middleware (no stack overflow)', async () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `user${index} password=Zq9${index}Wv!`);
    const tool: RegisteredTool = {
      name: 'test__dump',
      localName: 'dump',
      spec: { name: 'dump', description: 'dump', inputSchema: { type: 'object' } },
      provider: { namespace: 'test', kind: 'local' },
    };
    let counted = 0;
    const middleware = scrubberMiddleware(scrubber, { onFindings: (found) => (counted = found.length) });
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    const result = await handle({ tool, args: {}, ctx: createToolContext() }, async () =>
      ok([
        { type: 'text', text: lines.join('\n') },
        { type: 'text', text: '\n' },
      ]),
    );
    expect(result.ok).toBe(true);
    const text = result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text.split('\n')).toHaveLength(200_000);
    expect(text.split('[REDACTED:password]')).toHaveLength(200_001);
    expect(counted).toBe(200_000);
  });
});
