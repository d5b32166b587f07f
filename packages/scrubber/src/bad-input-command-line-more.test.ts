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
} from '../test/command-lines.js';
import { type LoopbackServer, startLoopbackServer } from '../test/loopback-server.js';

const run = promisify(execFile);

// More tools that take a password on their command line: sshpass, redis-cli, the MongoDB shells
// and tools, wget, container registry logins.

describe('sshpass, redis-cli, mongosh, docker login', () => {
  it('redacts the password in what `bash -x` prints for them', async () => {
    await expectTracesScrubbed(
      ['sshpass', 'redis-cli', 'mongosh', 'mongodump', 'docker', 'podman'],
      [
        'sshpass -p "$SECRET" ssh deploy@10.0.0.5 uptime',
        'sshpass -p"$SECRET" scp build.tar.gz deploy@10.0.0.5:/srv',
        'redis-cli -h cache.internal -a "$SECRET" --no-auth-warning ping',
        'redis-cli --user "$SECRET_USER" --pass "$SECRET" info',
        'mongosh "mongodb://db.internal/app" -u "$SECRET_USER" -p "$SECRET"',
        'mongodump --username "$SECRET_USER" --password "$SECRET" --db app',
        'docker login -u "$SECRET_USER" -p "$SECRET" registry.example.com',
        'podman login --password "$SECRET" -u "$SECRET_USER" quay.io',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(Array(8).fill('password'));
        expect(text).toContain(`-u ${user} -p`);
      },
    );
  });

  it('redacts every option form, in JSON and argument lists', () => {
    expectForms([
      [`sshpass -p ${password} ssh host`, 'sshpass -p # ssh host'],
      [`sshpass -p'${password}' rsync -a src/ host:dst/`, "sshpass -p'#' rsync -a src/ host:dst/"],
      [`redis-cli -a ${password} ping`, 'redis-cli -a # ping'],
      [`docker exec cache redis-cli -a '${password}' info`, "docker exec cache redis-cli -a '#' info"],
      [`mongo admin -u root -p ${password}`, 'mongo admin -u root -p #'],
      [
        `mongorestore --uri mongodb://h --password=${password} dump/`,
        'mongorestore --uri mongodb://h --password=# dump/',
      ],
      [`docker login -p ${password} -u ${user} ghcr.io`, `docker login -p # -u ${user} ghcr.io`],
      [
        `sudo docker login --username ${user} --password ${password}`,
        `sudo docker login --username ${user} --password #`,
      ],
      [
        `helm registry login -u ${user} -p ${password} reg.example`,
        `helm registry login -u ${user} -p # reg.example`,
      ],
    ]);
    const argv = JSON.stringify(['redis-cli', '-h', 'cache', '-a', password, 'ping']);
    expect(JSON.parse(scrubber.scrubText(argv))).toEqual([
      'redis-cli',
      '-h',
      'cache',
      '-a',
      '[REDACTED:password]',
      'ping',
    ]);
  });

  it('leaves prompts, --password-stdin, ports and placeholders alone', () => {
    expectLeftAlone([
      'sshpass -f ~/.ssh/pass ssh host',
      'sshpass -e ssh host',
      'ssh -p 2222 host',
      'redis-cli -a "$REDIS_PASSWORD" ping',
      'redis-cli --askpass',
      'mongosh -u root -p --authenticationDatabase admin',
      'mongosh -u root -p',
      'docker login -u alice --password-stdin registry.example.com',
      'echo "$CR_PAT" | docker login ghcr.io -u alice --password-stdin',
      'docker run -d -p 8080:80 -p 4443:443 nginx',
      'docker run --rm -p 5000:5000 registry:2',
      'docker login -p "$REGISTRY_PASSWORD" -u ci registry',
      'podman run -p 8080:8080 --name login app',
      'tar -czpf backup.tar.gz /srv',
      // Prose about these options (a commit message of this package).
      'redacts sshpass -p, redis-cli -a/--pass, mongosh/mongodump -p/--password and docker/podman login -p (docker run -p left alone)',
      'Use sshpass -p, or docker login -p (avoid it) with care.',
    ]);
  });
});

describe('already redacted by other rules', () => {
  it('keeps PGPASSWORD=, URL credentials (mongo, ftp, git clone) and --password= redacted', () => {
    for (const text of [
      `PGPASSWORD=${password} psql -h db -U app`,
      `MYSQL_PWD=${password} mysql -u root`,
      `mongo "mongodb://${user}:${password}@db.internal/app"`,
      `wget ftp://${user}:${password}@files.example.com/a.tgz`,
      `git clone https://${user}:${password}@git.example.com/team/repo.git`,
      `redis-cli -u redis://default:${password}@cache:6379`,
      `wget --http-user=${user} --http-password=${password} https://a`,
      `docker login --password=${password} -u ${user} registry`,
      `openssl pkcs12 -export -in a.crt -passout pass:${password} -out a.p12`,
      `mount -t cifs //h/s /mnt -o username=${user},password=${password},vers=3.0`,
    ]) {
      const scrubbed = scrubber.scrubText(text);
      expect(scrubbed, text).not.toContain(password);
      expect(scrubbed, text).toContain('[REDACTED:');
    }
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

describe('htpasswd -b file user password', () => {
  it('redacts the password in what `bash -x` prints for htpasswd in batch mode', async () => {
    await expectTracesScrubbed(
      ['htpasswd'],
      [
        'htpasswd -b /etc/nginx/.htpasswd "$SECRET_USER" "$SECRET"',
        'htpasswd -cbB .htpasswd "$SECRET_USER" "$SECRET"',
        'htpasswd -nb "$SECRET_USER" "$SECRET"',
        'htpasswd -B -C 12 -b .htpasswd "$SECRET_USER" "$SECRET"',
        'htpasswd -n -b "$SECRET_USER" "$SECRET"',
        'htpasswd -vb .htpasswd "$SECRET_USER" "$SECRET"',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(Array(6).fill('password'));
        expect(text).toContain(`+ htpasswd -b /etc/nginx/.htpasswd ${user} `);
      },
    );
  });

  it('leaves htpasswd without -b (it asks), placeholders and -b of other commands alone', () => {
    expectForms([
      [
        `htpasswd -b -c "/srv/my site/.htpasswd" ${user} ${password}`,
        `htpasswd -b -c "/srv/my site/.htpasswd" ${user} #`,
      ],
    ]);
    expectLeftAlone([
      'htpasswd -c /etc/nginx/.htpasswd alice',
      'htpasswd -D /etc/nginx/.htpasswd alice',
      'htpasswd -b /etc/nginx/.htpasswd alice "$ADMIN_PASSWORD"',
      'htpasswd -nb alice',
      'git checkout -b feature/login main',
      'git switch -c fix -b main origin/main',
      'sort -b -k2 names.txt other.txt',
      'ls -b one two three',
    ]);
  });
});
