import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const scrubber = createScrubber();
const secret = () => `${fake.chars(ALPHABETS.alnum, 14)}7`;
const marker = '[REDACTED:password]';

// Passwords in SQL that creates or changes a login: a migration file a read tool returns, a
// database client's echo of the statements it ran.

describe('passwords in SQL statements', () => {
  it('redacts the passwords of a real migration file for PostgreSQL, MySQL, SQL Server and Oracle', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-sql-'));
    const values = Array.from({ length: 7 }, secret);
    const [pg, pgAlter, mysql, plugin, setPassword, mssql, oracle] = values;
    const statements = [
      `CREATE ROLE app WITH LOGIN PASSWORD '${pg}';`,
      `alter user app with encrypted password '${pgAlter}' valid until 'infinity';`,
      `CREATE USER 'app'@'%' IDENTIFIED BY '${mysql}';`,
      `ALTER USER 'app'@'%' IDENTIFIED WITH caching_sha2_password BY '${plugin}';`,
      `SET PASSWORD FOR 'app'@'localhost' = PASSWORD('${setPassword}');`,
      `CREATE LOGIN app WITH PASSWORD = '${mssql}', CHECK_POLICY = OFF;`,
      `CREATE USER app IDENTIFIED BY ${oracle};`,
      'GRANT SELECT ON ALL TABLES IN SCHEMA public TO app;',
      '',
    ];
    try {
      const file = join(directory, '0001_roles.sql');
      await writeFile(file, statements.join('\n'));
      const content = await readFile(file, 'utf8');
      const scrubbed = scrubber.scrubText(content);
      for (const value of values) {
        expect(content).toContain(value);
        expect(scrubbed).not.toContain(value);
      }
      expect(scrubbed).toContain(`WITH LOGIN PASSWORD '${marker}';`);
      expect(scrubbed).toContain(`IDENTIFIED WITH caching_sha2_password BY '${marker}';`);
      expect(scrubbed).toContain(`= PASSWORD('${marker}');`);
      expect(scrubbed).toContain(`IDENTIFIED BY ${marker};`);
      expect(scrubbed).toContain("valid until 'infinity';");
      expect(scrubbed).toContain('GRANT SELECT ON ALL TABLES IN SCHEMA public TO app;');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('leaves bind parameters, NULL, queries of a password column and prose alone', () => {
    for (const text of [
      "CREATE USER app WITH PASSWORD ':password';",
      'ALTER USER app PASSWORD NULL;',
      'CREATE USER app IDENTIFIED BY $1;',
      'SELECT id, password FROM users WHERE id = 1;',
      "Enter the password 'below' to continue",
      'CREATE USER app IDENTIFIED EXTERNALLY;',
      'ORDER BY password DESC',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });

  it('leaves prose and doc comments with "identified by" alone (a bare word needs a user, role or login statement)', () => {
    for (const text of [
      '   * the instance MUST be valid\r\n   * against the meta-schema identified by this URI.\r\n',
      '     * POST messages to the relative or absolute URL identified by `_endpoint`.\n',
      'Each record is identified by its primary key',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
    expect(scrubber.scrubText("GRANT ALL ON db.* TO 'app'@'%' IDENTIFIED BY 'Xk29fLq8vP';")).toBe(
      "GRANT ALL ON db.* TO 'app'@'%' IDENTIFIED BY '[REDACTED:password]';",
    );
  });
});
