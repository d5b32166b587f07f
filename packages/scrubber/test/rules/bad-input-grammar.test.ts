import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// HTTP's grammar (RFC 9110) in a comment, as header parsers quote it: `token = 1*tchar` is an ABNF
// rule (one or more `tchar`), not a token. Several header parsers in node_modules quote it.

const fake = createFakeSource();
const scrubber = createScrubber();

describe('ABNF grammar in comments', () => {
  it('leaves a real source file quoting the grammar alone, and still redacts values with a star', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-abnf-'));
    try {
      const file = join(directory, 'parse.js');
      await writeFile(
        file,
        [
          '/**',
          ' * RegExp to match type in RFC 7231 sec 3.1.1.1',
          ' *',
          ' * media-type = type "/" subtype',
          ' * type       = token',
          ' * subtype    = token',
          ' * token         = 1*tchar',
          ' * secret        = *DIGIT',
          ' * auth-param    = token BWS "=" BWS ( token / quoted-string )',
          ' * token68       = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="',
          ' */',
          "const TYPE_REGEXP = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/",
          '',
        ].join('\n'),
      );
      const source = await readFile(file, 'utf8');
      expect(scrubber.scrub(source).findings).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    // A value that only looks like a repetition keeps being redacted: mixed case, digits after the star.
    const mixed = `8*${fake.chars(ALPHABETS.alnum, 14)}Q7`;
    expect(scrubber.scrubText(`token = ${mixed}\n`)).toBe('token = [REDACTED:token]\n');
  });
});
