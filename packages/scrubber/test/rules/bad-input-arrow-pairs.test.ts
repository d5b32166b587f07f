import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
const token = fake.chars(ALPHABETS.alnum, 32);

// Dumps of hashes and arrays whose pairs are written `key => value`: Perl's Data::Dumper, Ruby's
// inspect (and Rails' parameter logs), PHP's var_export and print_r.

describe('key => value pairs', () => {
  it('redacts the values of credential keys in a real Perl Data::Dumper dump', async () => {
    const script =
      'use Data::Dumper; $Data::Dumper::Sortkeys = 1; print Dumper({ user => "deploy", password => $ARGV[0], api_token => $ARGV[1], retries => 3 });';
    let stdout: string;
    try {
      ({ stdout } = await run('perl', ['-e', script, password, token]));
    } catch (error) {
      if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      console.warn(`skipped: perl is not available (${String(error)})`);
      return;
    }
    expect(stdout).toContain(password);
    const scrubbed = scrubber.scrubText(stdout);
    expect(scrubbed).not.toContain(password);
    expect(scrubbed).not.toContain(token);
    expect(scrubbed).toContain("'password' => '[REDACTED:password]'");
    expect(scrubbed).toContain("'api_token' => '[REDACTED:token]'");
    expect(scrubbed).toContain("'user' => 'deploy'");
  });

  it('redacts Ruby, Rails and PHP forms', () => {
    const cases: [string, string][] = [
      [`{:password=>"${password}", :user=>"bob"}`, '{:password=>"[REDACTED:password]", :user=>"bob"}'],
      [
        `Parameters: {"user"=>{"email"=>"a@example.com", "password"=>"${password}"}}`,
        'Parameters: {"user"=>{"email"=>"a@example.com", "password"=>"[REDACTED:password]"}}',
      ],
      [`  'password' => '${password}',`, "  'password' => '[REDACTED:password]',"],
      [`    [password] => ${password}\n`, '    [password] => [REDACTED:password]\n'],
    ];
    for (const [text, expected] of cases) expect(scrubber.scrubText(text), text).toBe(expected);
  });

  it('leaves arrow functions and comparisons alone', () => {
    for (const text of [
      'const check = password => password.length > 8;',
      'tokens.map((token) => token.trim())',
      "'password' => env('DB_PASSWORD'),",
      'if (token >= limit) return;',
      '{:password=>"[FILTERED]"}',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
