import { describe, expect, it } from 'vitest';
import { expectLeftAlone, expectTracesScrubbed } from '../helpers/command-lines.js';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// curl's `-b`/`--cookie` sends cookies given on the command line (`name=value; ...`: the session,
// as a `Cookie:` header is) or reads them from a file (no `=`: left alone).

const fake = createFakeSource();
const scrubber = createScrubber();

describe('curl -b and --cookie', () => {
  it('redacts cookies given on the command line in what `bash -x` prints', async () => {
    const forms = [
      'curl -sS -b "session=$SECRET" https://api.example.com/me',
      'curl --cookie "sid=$SECRET; theme=dark" https://api.example.com/me',
      'curl -sSb "session=$SECRET" https://api.example.com/me',
    ];
    await expectTracesScrubbed(['curl'], forms, (text, kinds) => {
      expect(kinds).toEqual(['cookie', 'cookie', 'cookie']);
      expect(text).toMatch(/\+ curl -sS -b '?\[REDACTED:cookie\]'? https:\/\/api\.example\.com\/me/);
    });
  });

  it('redacts them in an argument list and leaves cookie files and other commands alone', () => {
    const session = fake.chars(ALPHABETS.alnum, 24);
    expect(scrubber.scrubText(`["curl", "-b", "session=${session}", "https://a"]`)).toBe(
      '["curl", "-b", "[REDACTED:cookie]", "https://a"]',
    );
    expectLeftAlone([
      'curl -b cookies.txt -c cookies.txt https://example.com',
      'curl --cookie-jar jar.txt https://example.com',
      'git checkout -b feature/login=v2',
      'curl -b "$COOKIE" https://example.com',
    ]);
  });
});
