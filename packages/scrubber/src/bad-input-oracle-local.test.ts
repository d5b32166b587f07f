import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  password,
  scrubber,
} from '../test/command-lines.js';

// A connect string without a database (`sqlplus scott/PASSWORD`: the local instance named by
// ORACLE_SID) has neither `@` nor `userid=`: the command name before it is what makes
// `user/password` a logon rather than a path.

const forms = [
  'sqlplus scott/"$SECRET"',
  'sqlplus -s app_owner/"$SECRET" @deploy.sql',
  'sqlplus -L -S system/"$SECRET" as sysdba < deploy.sql',
  'sqlldr loader/"$SECRET" control=load.ctl log=load.log',
  '/opt/oracle/bin/sqlplus scott/"$SECRET"',
];

describe('Oracle connect strings to a local database', () => {
  it('redacts the password in what `bash -x` prints for sqlplus and sqlldr without @', async () => {
    await expectTracesScrubbed(['sqlplus', 'sqlldr', '/opt/oracle/bin/sqlplus'], forms, (text, kinds) => {
      expect(kinds).toEqual(forms.map(() => 'password'));
      expect(text).toMatch(/\+ sqlplus '?scott\/\[REDACTED:password\]'?\n/);
      expect(text).toMatch(/\+ sqlplus -s '?app_owner\/\[REDACTED:password\]'? @deploy\.sql\n/);
      expect(text).toMatch(/\+ sqlldr '?loader\/\[REDACTED:password\]'? control=load\.ctl/);
    });
  });

  it('redacts the forms of a local logon: prompt, argument list, quoted password, sqlcl', () => {
    expectForms([
      [`SQL> connect scott/${password}\nConnected.`, 'SQL> connect scott/#\nConnected.'],
      [`SQL> CONN system/${password};\n`, 'SQL> CONN system/#;\n'],
      [`["sqlplus", "-s", "scott/${password}"]`, '["sqlplus", "-s", "scott/#"]'],
      [`sqlplus scott/"${password}"`, 'sqlplus scott/"#"'],
      [`sqlcl admin/${password}`, 'sqlcl admin/#'],
      [`$ sqlplus.exe scott/${password}\r\n`, '$ sqlplus.exe scott/#\r\n'],
    ]);
  });

  it('leaves paths, OS logons and the other words after sqlplus alone', () => {
    expectLeftAlone([
      'sqlplus /nolog',
      'sqlplus / as sysdba',
      'sqlplus scott',
      'sqlplus @scripts/deploy.sql',
      'cd /opt/sqlplus && ls lib/ojdbc8.jar',
      'mysqlplus scott/tiger2',
      'sqlplus scott/"$ORACLE_PASSWORD"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
      'sqlplus scott/${ORACLE_PASSWORD}',
      'sqlplus scott/ab',
      'see sqlplus/docs/README.md and sqlldr/samples/load.ctl',
      'sqlplus scripts/setup/run.sql',
      'SQL> connect',
      'SQL> select a/b from dual;',
    ]);
    // Several in one text still find each.
    const text = `sqlplus a1/${password}\nsqlldr b2/${password} control=x.ctl\n`;
    expect(scrubber.scrub(text).findings.map((finding) => finding.kind)).toEqual(['password', 'password']);
  });
});
