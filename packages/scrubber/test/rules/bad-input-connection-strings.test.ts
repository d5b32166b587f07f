import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// ODBC connection strings (SQL Server, Db2, Snowflake drivers) quote a value holding `;` or a
// brace in braces: `PWD={a;b}`, `}}` for a `}` inside it. JSX's `token={token}` is code.

const fake = createFakeSource();
const scrubber = createScrubber();

describe('ODBC braced values', () => {
  it('redacts braced passwords in a real appsettings.json and odbc.ini', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-odbc-'));
    const plain = `${fake.chars(ALPHABETS.alnum, 14)}7`;
    const special = `${fake.chars(ALPHABETS.alnum, 6)};${fake.chars(ALPHABETS.alnum, 4)}}}${fake.chars(ALPHABETS.alnum, 4)}`;
    try {
      const settings = join(directory, 'appsettings.json');
      await writeFile(
        settings,
        JSON.stringify(
          {
            ConnectionStrings: {
              Main: `Driver={ODBC Driver 18 for SQL Server};Server=tcp:db.internal,1433;UID=app;PWD={${plain}};Encrypt=yes`,
              Reports: `Driver={ODBC Driver 18 for SQL Server};Server=db;Uid=reports;Pwd={${special}}`,
            },
          },
          null,
          2,
        ),
      );
      const ini = join(directory, 'odbc.ini');
      await writeFile(ini, `[warehouse]\nDriver=SnowflakeDSIIDriver\nuid=loader\npwd={${plain}}\n`);
      const text = `${await readFile(settings, 'utf8')}\n${await readFile(ini, 'utf8')}`;
      const scrubbed = scrubber.scrubText(text);
      for (const part of [plain, ...special.split(/[;}]+/)]) {
        expect(text).toContain(part);
        expect(scrubbed).not.toContain(part);
      }
      expect(scrubbed).toContain('UID=app;PWD={[REDACTED:password]};Encrypt=yes');
      expect(scrubbed).toContain('Pwd={[REDACTED:password]}"');
      expect(scrubbed).toContain('pwd={[REDACTED:password]}\n');
      expect(scrubbed).toContain('Driver={ODBC Driver 18 for SQL Server}');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('leaves templates, JSX props and empty braces alone', () => {
    for (const text of [
      'password={{ .Values.db.password }}',
      '<Login password={password} onChange={setPassword} />',
      '<Client apiKey={props.apiKey}>',
      'secret={}',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
