import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPlaceholder } from '../../src/placeholder.js';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const scrubber = createScrubber();

// A generated password may hold `<` or `>`; only an angle-bracketed name (`<your-token>`) or a
// template tag (`<%= ... %>`) makes a value a placeholder.

describe('values with < or >', () => {
  it('redacts passwords holding < or > in a real .env file, JSON and a mysql command', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-angle-'));
    const values = [
      `${fake.chars(ALPHABETS.alnum, 6)}<${fake.chars(ALPHABETS.alnum, 8)}9`,
      `${fake.chars(ALPHABETS.alnum, 6)}>>${fake.chars(ALPHABETS.alnum, 8)}9`,
      `${fake.chars(ALPHABETS.alnum, 5)}<${fake.chars(ALPHABETS.alnum, 3)}>${fake.chars(ALPHABETS.alnum, 4)}!9`,
    ];
    try {
      const path = join(directory, '.env');
      await writeFile(path, `DB_PASSWORD=${values[0]}\n# the admin account\nADMIN_TOKEN=${values[1]}\n`);
      const text = [
        await readFile(path, 'utf8'),
        `{"password":"${values[0]}"}`,
        `{"api_token": "${values[1]}"}`,
        `mysql -uroot -p'${values[2]}' app`,
      ].join('\n');
      const scrubbed = scrubber.scrubText(text);
      for (const value of values) {
        expect(text).toContain(value);
        expect(scrubbed).not.toContain(value);
      }
      expect(scrubbed).toContain('DB_PASSWORD=[REDACTED:password]\n');
      expect(scrubbed).toContain('ADMIN_TOKEN=[REDACTED:token]\n');
      expect(scrubbed).toContain("-p'[REDACTED:password]' app");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('still takes angle-bracketed names and template tags for placeholders', () => {
    for (const value of [
      '<your-password>',
      '<TOKEN>',
      '<api key>',
      '<%= ENV["DB_PASSWORD"] %>',
      'Bearer <token>',
    ])
      expect(isPlaceholder(value), value).toBe(true);
    for (const text of [
      'password=<your-password>',
      'token: <TOKEN>',
      'password: <%= ENV["DB_PASSWORD"] %>',
      'API_KEY=<redacted>',
      'Authorization: Bearer <token>',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
