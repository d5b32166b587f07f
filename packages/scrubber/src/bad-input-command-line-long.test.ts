import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  password,
  scrubber,
  trace,
  user,
} from '../test/command-lines.js';

// Long password options followed by a space: whether the next word is the password depends on the
// client. mysql/mariadb take `--password` alone (it asks) or `--password=VALUE`; the next word is
// the database. The clients below take the next word as the value.

describe('mysql --password followed by a word', () => {
  it('leaves the word alone: for mysql and mariadb it is the database name, not a password', async () => {
    const stderr = await trace(
      ['mysql', 'mysqldump', 'mariadb'],
      [
        'mysql -u root --password app_production',
        'mysqldump --user=backup --password inventory > inventory.sql',
        'mariadb -h db --password "$SECRET"',
      ],
      'warehouse',
    );
    if (stderr === undefined) return;
    expect(stderr).toContain('--password app_production');
    expect(scrubber.scrub(stderr).findings).toEqual([]);
    expectLeftAlone([
      `mysql -u root --password ${password}`,
      `mysqlsh --password ${password}`,
      `psql --password ${password}`,
      `psql -h db -U app -W --password app_db`,
    ]);
    // The `=` form is the password.
    expectForms([[`mysql -u root --password=${password} app`, 'mysql -u root --password=# app']]);
  });
});

describe('clients whose long password option takes the next word', () => {
  it('redacts redis-cli --pass, mongosh --password, docker login --password, wget --password, curl --user', () => {
    expectForms([
      [`redis-cli --pass ${password} ping`, 'redis-cli --pass # ping'],
      [`mongosh --password ${password} --quiet`, 'mongosh --password # --quiet'],
      [`docker login --password ${password} ghcr.io`, 'docker login --password # ghcr.io'],
      [`wget --user ${user} --password ${password} https://a`, `wget --user ${user} --password # https://a`],
      [`sshpass -p ${password} ssh host`, 'sshpass -p # ssh host'],
      [`curl --user ${user}:${password} https://a`, `curl --user ${user}:# https://a`],
    ]);
  });

  it('redacts helm, twine, svn, skopeo --creds and az login in what `bash -x` prints for them', async () => {
    await expectTracesScrubbed(
      ['helm', 'twine', 'svn', 'skopeo', 'az'],
      [
        'helm repo add charts https://charts.example.com --username "$SECRET_USER" --password "$SECRET"',
        'twine upload -u __token__ -p "$SECRET" dist/*',
        'svn checkout https://svn.example.com/repo --username "$SECRET_USER" --password "$SECRET"',
        'skopeo copy --src-creds "$SECRET_USER:$SECRET" docker://a/b docker://c/d',
        'az login -u "$SECRET_USER" -p "$SECRET"',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(Array(5).fill('password'));
        // bash quotes the word when the password holds `!` or `$`: the user name stays either way.
        expect(text).toMatch(new RegExp(`--src-creds '?${user}:\\[REDACTED:password\\]`));
      },
    );
  });

  it('redacts every form of them, and leaves their prompts, files and other options alone', () => {
    expectForms([
      [
        `helm pull oci://r/c --password=${password} --username ${user}`,
        `helm pull oci://r/c --password=# --username ${user}`,
      ],
      [`helm install app ./chart --password '${password}'`, "helm install app ./chart --password '#'"],
      [`twine upload --password ${password} dist/*`, 'twine upload --password # dist/*'],
      [`python -m twine upload -p ${password} dist/*`, 'python -m twine upload -p # dist/*'],
      [`svn commit -m fix --password ${password}`, 'svn commit -m fix --password #'],
      [
        `skopeo inspect --creds ${user}:${password} docker://r/i`,
        `skopeo inspect --creds ${user}:# docker://r/i`,
      ],
      [`skopeo copy --dest-creds=${user}:${password} a b`, `skopeo copy --dest-creds=${user}:# a b`],
      [`az login --username ${user} --password ${password}`, `az login --username ${user} --password #`],
    ]);
    expectLeftAlone([
      'helm install app ./chart --set password=$DB_PASSWORD',
      'helm repo add charts https://charts.example.com --username alice --password-stdin',
      'twine upload -u __token__ dist/*',
      'svn update --password-from-stdin',
      'skopeo copy --src-creds alice docker://a docker://b',
      'az login -u alice',
      'az vm create -n vm -g rg -p 22',
    ]);
  });
});
