import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  password,
  scrubber,
} from '../helpers/command-lines.js';

// Oracle's connect strings put the password between the user and the database (`user/pass@db`):
// sqlplus, SQLcl, Data Pump, RMAN, SQL*Loader and Data Guard's broker take one as an argument,
// SQL*Plus and RMAN as `CONNECT user/pass@db`, Data Pump and SQL*Loader as `userid=user/pass`.

const forms = [
  'sqlplus scott/"$SECRET"@orcl',
  'sqlplus -L -S app_owner/"$SECRET"@//db.example.com:1521/ORCLPDB1 @deploy.sql',
  'expdp system/"$SECRET"@prod schemas=HR directory=DATA_PUMP_DIR dumpfile=hr.dmp',
  'impdp userid=system/"$SECRET"@prod directory=DATA_PUMP_DIR dumpfile=hr.dmp',
  'rman target sys/"$SECRET"@prod',
  'sqlldr userid=loader/"$SECRET" control=load.ctl log=load.log',
  'dgmgrl sys/"$SECRET"@primary "show configuration"',
  'sql -s admin/"$SECRET"@db.example.com:1521/svc',
];

describe('Oracle connect strings', () => {
  it('redacts the password in what `bash -x` prints for the Oracle tools', async () => {
    await expectTracesScrubbed(
      ['sqlplus', 'expdp', 'impdp', 'rman', 'sqlldr', 'dgmgrl', 'sql'],
      forms,
      (text, kinds) => {
        expect(kinds).toEqual(forms.map(() => 'password'));
        expect(text).toMatch(/\+ sqlplus '?scott\/\[REDACTED:password\]@orcl'?\n/);
        expect(text).toMatch(
          /\+ rman target 'sys\/\[REDACTED:password\]@prod'|\+ rman target sys\/\[REDACTED:password\]@prod/,
        );
        expect(text).toContain('@//db.example.com:1521/ORCLPDB1');
        expect(text).toMatch(/userid=loader\/\[REDACTED:password\]'? control=load\.ctl/);
      },
    );
  });

  it('redacts CONNECT in a SQL*Plus script and session, and userid= in a parameter file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-oracle-'));
    try {
      await writeFile(
        join(directory, 'deploy.sql'),
        `WHENEVER SQLERROR EXIT 1\nCONNECT app_owner/${password}@prod_tns\n@schema.sql\nconn sys/"${password}"@prod AS SYSDBA\nEXIT\n`,
      );
      await writeFile(join(directory, 'export.par'), `userid=scott/${password}\ndirectory=DATA_PUMP_DIR\n`);
      const script = await readFile(join(directory, 'deploy.sql'), 'utf8');
      const parfile = await readFile(join(directory, 'export.par'), 'utf8');
      const session = `SQL> connect scott/${password}@orcl\nConnected.\nRMAN> CONNECT TARGET sys/${password}@prod\n`;
      const scrubbed = scrubber.scrubText(script + parfile + session);
      expect(scrubbed).not.toContain(password);
      expect(scrubbed).toContain('CONNECT app_owner/[REDACTED:password]@prod_tns\n');
      expect(scrubbed).toContain('conn sys/"[REDACTED:password]"@prod AS SYSDBA\n');
      expect(scrubbed).toContain('userid=scott/[REDACTED:password]\ndirectory=');
      expect(scrubbed).toContain('SQL> connect scott/[REDACTED:password]@orcl\n');
      expect(scrubbed).toContain('RMAN> CONNECT TARGET sys/[REDACTED:password]@prod\n');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('redacts JDBC thin URLs and argument lists, and leaves other user/x@y words alone', () => {
    expectForms([
      [
        `jdbc:oracle:thin:scott/${password}@db.example.com:1521:ORCL`,
        'jdbc:oracle:thin:scott/#@db.example.com:1521:ORCL',
      ],
      [`["sqlplus", "-s", "scott/${password}@orcl"]`, '["sqlplus", "-s", "scott/#@orcl"]'],
      [`sqlplus 'scott/${password}@orcl as sysdba'`, "sqlplus 'scott/#@orcl as sysdba'"],
    ]);
    expectLeftAlone([
      'sqlplus / as sysdba',
      'sqlplus /@wallet_alias',
      'sqlplus scott@orcl',
      'sqlplus scott/"$ORACLE_PASSWORD"@orcl',
      'npm install @types/node@20 left-pad@1.3.0',
      'git push git@github.com:org/repo.git main',
      'connect to the server at deploy/main@origin',
      'docker pull registry/app@sha256',
      'cp icons/logo@2x.png dist/',
      'userid=scott',
    ]);
  });
});
