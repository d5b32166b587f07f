import { describe, expect, it } from 'vitest';
import { expectForms, expectLeftAlone, expectTracesScrubbed, password } from '../helpers/command-lines.js';

// Database and queue clients that take a password as an option's next word: Cassandra's cqlsh,
// ClickHouse's client, InfluxDB 1.x's influx (`-password`, one dash), mycli, rabbitmqadmin,
// Vertica's vsql, and openssl enc's `-k`. Each is traced as `bash -x` prints it.

const forms = [
  'cqlsh -u cassandra -p "$SECRET" db.internal',
  'cqlsh --password "$SECRET" db.internal',
  'clickhouse-client --user default --password "$SECRET" --query "SELECT 1"',
  'clickhouse client --password "$SECRET"',
  'influx -username admin -password "$SECRET" -execute "SHOW DATABASES"',
  'mycli -u root -p "$SECRET" app',
  'rabbitmqadmin -u admin -p "$SECRET" list queues',
  'vsql -U dbadmin -w "$SECRET" -h db',
  'openssl enc -aes-256-cbc -k "$SECRET" -in notes.txt -out notes.enc',
];

describe('database and queue clients', () => {
  it('redacts their password options in what `bash -x` prints', async () => {
    const names = [
      'cqlsh',
      'clickhouse-client',
      'clickhouse',
      'influx',
      'mycli',
      'rabbitmqadmin',
      'vsql',
      'openssl',
    ];
    await expectTracesScrubbed(names, forms, (text, kinds) => {
      expect(kinds).toEqual(forms.map(() => 'password'));
      expect(text).toMatch(/\+ cqlsh -u cassandra -p '?\[REDACTED:password\]'? db\.internal/);
      expect(text).toMatch(/\+ influx -username admin -password '?\[REDACTED:password\]'? -execute/);
    });
  });

  it('redacts the forms written by hand and leaves prompts and other options alone', () => {
    expectForms([
      [`cqlsh -u cassandra -p ${password} db`, 'cqlsh -u cassandra -p # db'],
      [`clickhouse-client --password=${password}`, 'clickhouse-client --password=#'],
      [`influx -password '${password}'`, "influx -password '#'"],
    ]);
    expectLeftAlone([
      'cqlsh -u cassandra db.internal',
      'clickhouse-client --password --query "SELECT 1"',
      'influx -username admin -execute "SHOW DATABASES"',
      'rabbitmqadmin -H rabbit.internal -P 15672 list queues',
      'openssl enc -d -aes-256-cbc -kfile key.txt -in notes.enc',
    ]);
  });
});
