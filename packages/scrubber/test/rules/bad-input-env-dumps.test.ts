import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

// What a shell prints of its environment: `env` and `printenv` print values raw (spaces and quotes
// as they are), `set` quotes them with '...' ('\'' for a quote) or $'...' (control characters),
// `export -p` and `declare -x`/`-p` with "..." or $'...'. Every secret-named variable's value
// must go, whatever the quoting.

const secrets: Record<string, string> = {
  DB_PASSWORD: `${fake.chars(ALPHABETS.alnum, 12)}&3\t${fake.chars(ALPHABETS.alnum, 8)}`,
  GH_PAT: fake.chars(ALPHABETS.alnum, 24),
  LICENSE_KEY: `${fake.chars(ALPHABETS.alnum, 5)}-${fake.chars(ALPHABETS.alnum, 5)}-${fake.chars(ALPHABETS.alnum, 5)}`,
  SECRET_KEY_BASE: fake.chars(ALPHABETS.hex, 64),
  WEBHOOK_SIGNING_KEY: fake.chars(ALPHABETS.alnum, 32),
  SESSION_TOKEN: `${fake.chars('abcdefghij', 5)} ${fake.chars('klmnopqrst', 5)} ${fake.chars(ALPHABETS.alnum, 10)}`,
  QUOTED_SECRET: `${fake.chars(ALPHABETS.alnum, 6)}'s-${fake.chars(ALPHABETS.alnum, 8)}!`,
};
const ordinary: Record<string, string> = {
  LANG: 'C.UTF-8',
  EDITOR: 'vim',
  PRIMARY_KEY: 'id',
  TOKEN_TTL: '3600',
};

/** The pieces of each secret a scrubbed dump must not show (each word of a value with blanks). */
function pieces(value: string): string[] {
  return value.split(/[\t ]/).filter((piece) => piece.length >= 5);
}

describe('environment dumps', () => {
  it('redacts secret-named variables in real env, printenv, set, export -p and declare output', async () => {
    const script = [
      'echo "--- env"; env',
      'echo "--- printenv"; printenv',
      `echo "--- set"; set | grep -E '^(${Object.keys({ ...secrets, ...ordinary }).join('|')})='`,
      'echo "--- export -p"; export -p',
      `echo "--- declare -p"; declare -p ${Object.keys(secrets).join(' ')}`,
    ].join('; ');
    let stdout: string;
    try {
      ({ stdout } = await run('bash', ['-c', script], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/home/dev', ...secrets, ...ordinary },
      }));
    } catch (error) {
      if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      console.warn(`skipped: bash is not available (${String(error)})`);
      return;
    }
    for (const value of Object.values(secrets)) expect(stdout).toContain(pieces(value)[0]);
    expect(stdout).toContain("$'"); // set and export -p quote the value with a tab as $'...'
    expect(stdout).toContain("'\\''"); // set quotes the quote as '\''
    const scrubbed = scrubber.scrubText(stdout);
    for (const [name, value] of Object.entries(secrets))
      for (const piece of pieces(value)) expect(scrubbed, `${name}: ${piece}`).not.toContain(piece);
    // Ordinary variables stay as they were, in every format.
    for (const line of ['LANG=C.UTF-8', 'EDITOR=vim', 'PRIMARY_KEY=id', 'TOKEN_TTL=3600', 'HOME=/home/dev'])
      expect(scrubbed).toContain(line);
    expect(scrubbed).toContain('declare -x LANG="C.UTF-8"');
    expect(scrubbed).toContain(`PATH=${process.env.PATH ?? '/usr/bin:/bin'}`);
  });

  it('keeps the quotes and the name of each redacted variable', () => {
    const value = fake.chars(ALPHABETS.alnum, 16);
    expect(scrubber.scrubText(`declare -x GH_PAT="${value}"\n`)).toBe(
      'declare -x GH_PAT="[REDACTED:token]"\n',
    );
    expect(scrubber.scrubText(`DB_PASSWORD=$'${value}\\nmore'\n`)).toBe(
      "DB_PASSWORD=$'[REDACTED:password]'\n",
    );
    expect(scrubber.scrubText(`API_SECRET='${value}'\\''s'\n`)).toBe("API_SECRET='[REDACTED:secret]'\n");
    expect(scrubber.scrubText(`declare -x SESSION_TOKEN="a b ${value}"\n`)).toBe(
      'declare -x SESSION_TOKEN="[REDACTED:token]"\n',
    );
  });

  it('leaves a command after an assignment alone outside a dump', () => {
    // A digit in it: outside a dump line a bare word of letters is taken for a name, not a value.
    const value = `${fake.chars(ALPHABETS.alnum, 15)}7`;
    expect(scrubber.scrubText(`GH_PAT=${value} gh pr list\n`)).toBe('GH_PAT=[REDACTED:token] gh pr list\n');
  });
});
