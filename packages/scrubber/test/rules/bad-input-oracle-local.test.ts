import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  password,
  scrubber,
} from '../helpers/command-lines.js';

// A connect string without a database (`sqlplus scott/PASSWORD`: the local instance named by
// ORACLE_SID) has neither `@` nor `userid=`: the command name before it is what makes
// `user/password` a logon rather than a path. SQL*Plus and SQL*Loader take the logon as their
// first argument, Data Pump (`expdp`, `impdp`) too, and RMAN after `target`, `catalog` or
// `auxiliary`.

const sqlplusForms = [
  'sqlplus scott/"$SECRET"',
  'sqlplus -s app_owner/"$SECRET" @deploy.sql',
  'sqlplus -L -S system/"$SECRET" as sysdba < deploy.sql',
  'sqlldr loader/"$SECRET" control=load.ctl log=load.log',
  '/opt/oracle/bin/sqlplus scott/"$SECRET"',
];

describe('Oracle connect strings to a local database', () => {
  it('redacts the password in what `bash -x` prints for sqlplus and sqlldr without @', async () => {
    await expectTracesScrubbed(
      ['sqlplus', 'sqlldr', '/opt/oracle/bin/sqlplus'],
      sqlplusForms,
      (text, kinds) => {
        expect(kinds).toEqual(sqlplusForms.map(() => 'password'));
        expect(text).toMatch(/\+ sqlplus '?scott\/\[REDACTED:password\]'?\n/);
        expect(text).toMatch(/\+ sqlplus -s '?app_owner\/\[REDACTED:password\]'? @deploy\.sql\n/);
        expect(text).toMatch(/\+ sqlldr '?loader\/\[REDACTED:password\]'? control=load\.ctl/);
      },
    );
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

const dataPumpAndRmanForms = [
  'expdp scott/"$SECRET" directory=DATA_PUMP_DIR dumpfile=scott.dmp logfile=exp.log',
  'impdp system/"$SECRET" schemas=hr remap_schema=hr:hr_test',
  'rman target sys/"$SECRET"',
  'rman target sys/"$SECRET"@prod catalog rco/"$SECRET"@catdb',
  'rman target sys/"$SECRET" catalog rco/"$SECRET" log=/tmp/rman.log',
];

describe('Oracle Data Pump and RMAN logons without @', () => {
  it('redacts every password in what `bash -x` prints for expdp, impdp and rman', async () => {
    await expectTracesScrubbed(['expdp', 'impdp', 'rman'], dataPumpAndRmanForms, (text, kinds) => {
      expect(kinds).toEqual([
        'password',
        'password',
        'password',
        'password',
        'password',
        'password',
        'password',
      ]);
      expect(text).toMatch(/\+ expdp '?scott\/\[REDACTED:password\]'? directory=DATA_PUMP_DIR/);
      expect(text).toMatch(/\+ impdp '?system\/\[REDACTED:password\]'? schemas=hr/);
      expect(text).toMatch(/\+ rman target '?sys\/\[REDACTED:password\]'?\n/);
      expect(text).toMatch(
        /\+ rman target '?sys\/\[REDACTED:password\]'? catalog '?rco\/\[REDACTED:password\]'? log=/,
      );
    });
  });

  it('redacts the forms: argument lists, options first, quoted logons, keywords in capitals and with =', () => {
    expectForms([
      [`expdp scott/${password} directory=DATA_PUMP_DIR`, 'expdp scott/# directory=DATA_PUMP_DIR'],
      [`impdp system/${password} full=y`, 'impdp system/# full=y'],
      [`["expdp", "hr/${password}", "schemas=hr"]`, '["expdp", "hr/#", "schemas=hr"]'],
      [`expdp "system/${password} as sysdba" full=y`, 'expdp "system/# as sysdba" full=y'],
      [`/u01/app/oracle/bin/impdp app/${password}\n`, '/u01/app/oracle/bin/impdp app/#\n'],
      [`rman target sys/${password}`, 'rman target sys/#'],
      [`rman TARGET sys/${password} nocatalog`, 'rman TARGET sys/# nocatalog'],
      [`rman target=sys/${password}`, 'rman target=sys/#'],
      [`rman auxiliary sys/${password}`, 'rman auxiliary sys/#'],
    ]);
    const both = `rman target sys/${password} catalog rco/${password}x`;
    expect(scrubber.scrubText(both)).toBe(
      'rman target sys/[REDACTED:password] catalog rco/[REDACTED:password]',
    );
  });

  it('leaves OS logons, parameter files, paths and near words alone', () => {
    expectLeftAlone([
      'rman target /',
      'rman target / catalog /@catdb',
      'expdp \\"/ as sysdba\\" full=y',
      'expdp parfile=exp.par',
      'impdp help=y',
      'expdp scott',
      'expdp scott/"$ORACLE_PASSWORD" directory=x',
      'see rman/docs/README.md and expdp/samples/run.sh',
      'expdp dumps/2024/scott.dmp',
      'Sherman target shop/discount',
      'rman target sys/ab',
      'rman target sys/"$PW"',
      'man rman; man expdp',
    ]);
  });
});
