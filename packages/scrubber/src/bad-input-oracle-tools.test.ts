import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  password,
  scrubber,
} from '../test/command-lines.js';

// Data Pump (`expdp`, `impdp`) takes a logon as its first argument, and RMAN after `target`,
// `catalog` or `auxiliary`; without `@` (the local instance) nothing but the command makes
// `user/password` a logon rather than a path.

const forms = [
  'expdp scott/"$SECRET" directory=DATA_PUMP_DIR dumpfile=scott.dmp logfile=exp.log',
  'impdp system/"$SECRET" schemas=hr remap_schema=hr:hr_test',
  'rman target sys/"$SECRET"',
  'rman target sys/"$SECRET"@prod catalog rco/"$SECRET"@catdb',
  'rman target sys/"$SECRET" catalog rco/"$SECRET" log=/tmp/rman.log',
];

describe('Oracle Data Pump and RMAN logons without @', () => {
  it('redacts every password in what `bash -x` prints for expdp, impdp and rman', async () => {
    await expectTracesScrubbed(['expdp', 'impdp', 'rman'], forms, (text, kinds) => {
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
