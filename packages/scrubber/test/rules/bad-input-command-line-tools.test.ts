import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  marker,
  password,
  scrubber,
  trace,
  user,
} from '../helpers/command-lines.js';

// Passwords on the command line of LDAP clients, Java's keytool, SQL Server's sqlcmd, archivers,
// sshpass, redis-cli, the MongoDB shells and tools, container registry logins and htpasswd.

describe('ldapsearch -w, keytool -storepass, sqlcmd -P, zip -P, 7z -p', () => {
  it('redacts the password in what `bash -x` prints for them', async () => {
    await expectTracesScrubbed(
      ['ldapsearch', 'ldapmodify', 'ldappasswd', 'keytool', 'jarsigner', 'sqlcmd', 'zip', 'unzip', '7z'],
      [
        'ldapsearch -x -H ldap://ldap.internal -D "cn=admin,dc=example,dc=org" -w "$SECRET" -b dc=example,dc=org',
        'ldapmodify -x -D cn=admin,dc=example,dc=org -w"$SECRET" -f change.ldif',
        'ldappasswd -x -D "uid=$SECRET_USER,dc=example,dc=org" -a "$SECRET" -s "$SECRET"',
        'keytool -importcert -alias ca -file ca.crt -keystore truststore.jks -storepass "$SECRET" -noprompt',
        'jarsigner -keystore release.jks -storepass "$SECRET" -keypass "$SECRET" app.jar release',
        'sqlcmd -S db.internal -U sa -P "$SECRET" -Q "select 1"',
        'zip -r -P "$SECRET" backup.zip data',
        'unzip -P "$SECRET" backup.zip',
        '7z a -p"$SECRET" -mhe=on backup.7z data',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(Array(11).fill('password'));
        expect(text).toContain(`+ ldappasswd -x -D uid=${user},dc=example,dc=org -a `);
      },
    );
  });

  it('redacts every option form, in JSON and argument lists', () => {
    expectForms([
      [`ldapwhoami -x -D cn=ro -w ${password}`, 'ldapwhoami -x -D cn=ro -w #'],
      [`ldapdelete -D cn=admin -w '${password}' uid=x`, "ldapdelete -D cn=admin -w '#' uid=x"],
      [
        `keytool -list -keystore ks.p12 -storepass ${password}`,
        'keytool -list -keystore ks.p12 -storepass #',
      ],
      [
        `keytool -importkeystore -srckeystore a.jks -srcstorepass ${password} -destkeystore b.p12`,
        'keytool -importkeystore -srckeystore a.jks -srcstorepass # -destkeystore b.p12',
      ],
      [
        `keytool -storepasswd -keystore ks.jks -new ${password}`,
        'keytool -storepasswd -keystore ks.jks -new #',
      ],
      [`bcp dbo.t out t.dat -S db -U sa -P ${password} -c`, 'bcp dbo.t out t.dat -S db -U sa -P # -c'],
      [`unzip -o -P ${password} a.zip -d out`, 'unzip -o -P # a.zip -d out'],
      [`7za x -p${password} backup.7z`, '7za x -p# backup.7z'],
      [`unrar x -p${password} a.rar`, 'unrar x -p# a.rar'],
    ]);
    const argv = JSON.stringify(['keytool', '-list', '-storepass', password]);
    expect(JSON.parse(scrubber.scrubText(argv))).toEqual([
      'keytool',
      '-list',
      '-storepass',
      '[REDACTED:password]',
    ]);
  });

  it('leaves prompts, password files and the same letters of other commands alone', () => {
    expectLeftAlone([
      'ldapsearch -x -D cn=admin,dc=example,dc=org -W -b dc=example,dc=org',
      'ldapsearch -x -D cn=admin -y /run/secrets/ldap -b dc=example',
      'ldapsearch -x -a always -b dc=example uid=alice',
      'ldapsearch -LLL -s base -b "" namingContexts',
      'keytool -list -keystore ks.jks -storepass:env STOREPASS',
      'keytool -list -keystore ks.jks -storepass:file /run/secrets/storepass',
      'keytool -genkeypair -alias app -keystore ks.p12',
      'sqlcmd -S db -U sa -Q "select 1"',
      'zip -e backup.zip data',
      'zip -r -9 backup.zip data -x "*.log"',
      '7z a -p backup.7z data',
      '7z x backup.7z -ooutput',
      'psql -h db -p 5432 -w -U app',
      'nc -w 5 host 80',
      'tar -P -czf backup.tgz /srv',
      'rsync -P -a src/ host:dst/',
      'scp -P 2222 file host:/tmp',
    ]);
  });
});

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
      // Prose about these options, as a commit message or a changelog writes it.
      'redacts sshpass -p, redis-cli -a/--pass, mongosh/mongodump -p/--password and docker/podman login -p (docker run -p left alone)',
      'Use sshpass -p, or docker login -p (avoid it) with care.',
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

describe('prose and markdown about these options', () => {
  it('leaves code spans, command substitution and option names in sentences alone', () => {
    expectLeftAlone([
      'With `mysql`, `mariadb`... give `-p` glued to its value; `docker run -p 3306:3306 mysql`, `mkdir -p`, `ssh -p 2222` are not.',
      "OpenLDAP's `ldapsearch -w SECRET` (and `ldappasswd -a`/`-s`), `keytool -storepass`, `sqlcmd -P`, `zip -P`, `7z -p` (see below)",
      'wget `--http-password`, `--ftp-password`, `--proxy-password` given as the next argument',
      'mysql -u root -p`cat /run/secrets/mysql` app',
      'The forms: mysql/mysqldump/mariadb -pSECRET, htpasswd -b file user password, and more.',
      '(`docker exec db mysql -uroot -pX` is mysql)',
      'a bare `-p` never takes the next word, and `-p 8080`, `-p3306:3306`, `mkdir -p` and placeholders are left alone.',
      '`htpasswd -c file user` and `git checkout -b` are left alone.',
    ]);
  });
});

describe('option-dense text', () => {
  it('looks back over a long line of options, and still finds a command before them', () => {
    const options = ' -p -a -w -b -U'.repeat(20_000);
    expect(scrubber.scrub(`ls${options}`).findings).toEqual([]);
    expect(scrubber.scrubText(`mysql${' -v'.repeat(50)} -p${password}${options}`)).not.toContain(password);
  });
});

describe('command lines as processes and JSON show them', () => {
  it("redacts the password in a real process's /proc/<pid>/cmdline (arguments separated by NULs)", async () => {
    const child = spawn('bash', ['-c', 'sleep 60; :', 'mysql', '-u', 'root', `-p${password}`, 'app'], {
      stdio: 'ignore',
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      let cmdline: string;
      try {
        cmdline = await readFile(`/proc/${child.pid}/cmdline`, 'utf8');
      } catch (error) {
        if (process.env.CI === 'true') throw error;
        console.warn(`skipped: /proc is not readable (${String(error)})`);
        return;
      }
      expect(cmdline).toBe(`bash\0-c\0sleep 60; :\0mysql\0-u\0root\0-p${password}\0app\0`);
      expect(scrubber.scrubText(cmdline)).toBe(`bash\0-c\0sleep 60; :\0mysql\0-u\0root\0-p${marker}\0app\0`);
      const sshpass = `sshpass\0-p\0${password}\0ssh\0deploy@host\0`;
      expect(scrubber.scrubText(sshpass)).toBe(`sshpass\0-p\0${marker}\0ssh\0deploy@host\0`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('redacts a glued value in JSON-escaped quotes, and keeps the backslash of a continued line', () => {
    const json = JSON.stringify({ cmd: `mysql -u root -p"${password}" app` });
    expect(JSON.parse(scrubber.scrubText(json))).toEqual({ cmd: `mysql -u root -p"${marker}" app` });
    expectForms([
      [`mysql -u root -p${password}\\\n  app`, 'mysql -u root -p#\\\n  app'],
      [`sshpass -p ${password}\\\r\n  ssh host`, 'sshpass -p #\\\r\n  ssh host'],
    ]);
  });
});

describe('passwords with spaces', () => {
  it('redacts a whole glued value when bash -x quotes the whole word', async () => {
    const secret = `${password.slice(0, 7)} ${password.slice(7)}`;
    const stderr = await trace(
      ['mysql', 'smbclient', 'sshpass'],
      [
        'mysql -u root -p"$SECRET" app',
        'smbclient //h/s -U"$SECRET_USER%$SECRET"',
        'sshpass -p"$SECRET" ssh host',
      ],
      secret,
    );
    if (stderr === undefined) return;
    expect(stderr).toContain(`'-p${secret}'`);
    const text = scrubber.scrubText(stderr);
    expect(text).not.toContain(password.slice(7));
    expect(text).toContain(`+ mysql -u root '-p${marker}' app\n`);
    expect(text).toContain(`'-U${user}%${marker}'`);
    const json = JSON.stringify({ argv: `sshpass "-p${secret}" ssh host` });
    expect(JSON.parse(scrubber.scrubText(json))).toEqual({ argv: `sshpass "-p${marker}" ssh host` });
    // Output cut before the closing quote: the value up to the first blank.
    expectForms([[`mysql -u root '-p${password}`, "mysql -u root '-p#"]]);
  });
});
