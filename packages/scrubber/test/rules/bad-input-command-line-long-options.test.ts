import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  password,
  scrubber,
  trace,
  tracedSecrets,
  user,
} from '../helpers/command-lines.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback-server.js';

const run = promisify(execFile);

// Long password options followed by a space: whether the next word is the password depends on the
// client. mysql/mariadb take `--password` alone (it asks) or `--password=VALUE`; the next word is
// the database. The clients below take the next word as the value; wget's `--http-password` is
// checked against a wget that really authenticates.

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

describe('wget --http-password', () => {
  let server: LoopbackServer;
  let port = 0;
  const authorizations: string[] = [];
  beforeAll(async () => {
    server = await startLoopbackServer((request, response) => {
      const authorization = request.headers.authorization;
      if (authorization === undefined) {
        response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' }).end();
        return;
      }
      authorizations.push(authorization);
      response.end('ok');
    });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
  });

  it("redacts the password in the trace and in `wget -d`'s own report of a wget that really authenticated", async () => {
    try {
      await run('wget', ['--version']);
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      console.warn(`skipped: wget is not available (${String(error)})`);
      return;
    }
    for (const secret of tracedSecrets) {
      const stderr = await trace(
        [],
        [
          'wget -d -O /dev/null --http-user "$SECRET_USER" --http-password "$SECRET" "$URL"',
          'wget -nv -O /dev/null --user="$SECRET_USER" --password "$SECRET" "$URL"',
        ],
        secret,
        { URL: `http://127.0.0.1:${port}/` },
      );
      if (stderr === undefined) return;
      const basic = `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
      // The server really got these credentials, and wget's debug output names the password.
      expect(authorizations.slice(-2)).toEqual([basic, basic]);
      expect(stderr).toContain(`Setting --http-password (httppassword) to ${secret}\n`);
      const text = scrubber.scrubText(stderr);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(basic);
      expect(text).toContain('Setting --http-password (httppassword) to [REDACTED:password]\n');
      expect(text).toContain(`--http-user ${user} --http-password`);
    }
  });

  it('redacts every password option given as the next argument, and leaves other options alone', () => {
    expectForms([
      [`wget --password ${password} https://a`, 'wget --password # https://a'],
      [
        `wget --ftp-user ${user} --ftp-password '${password}' ftp://a/f`,
        `wget --ftp-user ${user} --ftp-password '#' ftp://a/f`,
      ],
      [
        `wget -e use_proxy=on --proxy-password ${password} https://a`,
        'wget -e use_proxy=on --proxy-password # https://a',
      ],
      ['Setting --password (password) to hunter2hunter2\n', 'Setting --password (password) to #\n'],
    ]);
    expectLeftAlone([
      'wget --ask-password --user alice https://a',
      'wget --http-user alice https://a',
      'wget --use-askpass=/usr/bin/ssh-askpass https://a',
      'Setting --http-user (httpuser) to alice',
      'Setting --tries (tries) to 3',
    ]);
  });
});
