import { describe, expect, it } from 'vitest';
import {
  expectForms,
  expectLeftAlone,
  expectTracesScrubbed,
  marker,
  password,
  scrubber,
  user,
} from '../helpers/command-lines.js';

// Passwords given on the command line of other tools than curl (`mysql -pSECRET`, HTTPie's
// `-a user:pass`, `smbclient -U user%pass`...), in command text and in what `bash -x` prints.

describe('mysql -pSECRET', () => {
  it('redacts the password in what `bash -x` prints for mysql, mysqldump and mariadb', async () => {
    await expectTracesScrubbed(
      ['mysql', 'mysqldump', 'mariadb', 'mysqladmin'],
      [
        'mysql -u root -p"$SECRET" -e "select 1"',
        'mysqldump -u root -p"$SECRET" appdb',
        'mariadb -h db.internal -uroot -p"$SECRET"',
        'mysql --password="$SECRET" appdb',
        'mysqladmin -uroot "-p$SECRET" status',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(Array(5).fill('password'));
        expect(text).toMatch(/\+ mysql -u root '?-p\[REDACTED:password\]'? -e 'select 1'\n/);
      },
    );
  });

  it('redacts -p glued to its value, quoted or not, in JSON and argument lists', () => {
    expectForms([
      [`mysql -p${password} -u root`, 'mysql -p# -u root'],
      [`mysqldump -u root -p${password} db > db.sql`, 'mysqldump -u root -p# db > db.sql'],
      [
        `mysql -h 127.0.0.1 -P 3306 -uroot -p'${password}' app`,
        "mysql -h 127.0.0.1 -P 3306 -uroot -p'#' app",
      ],
      [`mysql -uroot -p"${password}"`, 'mysql -uroot -p"#"'],
      [
        `docker exec -it db mysql -uroot -p${password} -e 'show databases'`,
        "docker exec -it db mysql -uroot -p# -e 'show databases'",
      ],
      [`/usr/bin/mysql -p${password}`, '/usr/bin/mysql -p#'],
      [`mysql.exe -u root -p${password}`, 'mysql.exe -u root -p#'],
      [`mysql \\\n  -u root \\\n  -p${password} \\\n  app`, 'mysql \\\n  -u root \\\n  -p# \\\n  app'],
      [`mysql --password=${password}`, 'mysql --password=#'],
    ]);
    const json = JSON.stringify({ cmd: `mysqldump -u root -p${password} app`, exit: 0 });
    expect(JSON.parse(scrubber.scrubText(json))).toEqual({
      cmd: `mysqldump -u root -p${marker} app`,
      exit: 0,
    });
    const argv = JSON.stringify(['mysql', '-u', 'root', `-p${password}`, 'app']);
    expect(JSON.parse(scrubber.scrubText(argv))).toEqual(['mysql', '-u', 'root', `-p${marker}`, 'app']);
  });

  it('leaves a bare -p (mysql asks), ports, placeholders and -p of other commands alone', () => {
    expectLeftAlone([
      'mysql -u root -p mydb',
      'mysql -u root -p',
      'mysqldump -u root -p --all-databases > all.sql',
      'mysql -h db -P 3306 -u root -p app',
      'mysql -u root -p"$MYSQL_ROOT_PASSWORD"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
      'mysql -u root -p${MYSQL_PASSWORD}',
      'mysql --password-file=/run/secrets/mysql',
      'docker run -d --name mysql -p 3306:3306 mysql:8',
      'docker run -d --name mysql -p3306:3306 mysql:8',
      'mkdir -p /var/lib/mysql',
      'ssh -p 2222 deploy@db.internal mysql',
      'python -m http.server -p 8080',
      'Run mysql with -p to be asked for the password.',
    ]);
  });

  it('gives the one-shot output in a stream', () => {
    const text = `${'x'.repeat(200)}\n$ docker exec db \\\n  mysqldump -u root \\\n  -p${password} app\n${'y'.repeat(300)}\n`;
    const oneShot = scrubber.scrubText(text);
    expect(oneShot).not.toContain(password);
    for (const size of [1, 7, 64, 301]) {
      const stream = scrubber.createStreamScrubber();
      let out = '';
      for (let index = 0; index < text.length; index += size)
        out += stream.write(text.slice(index, index + size));
      expect(out + stream.flush()).toBe(oneShot);
    }
  });
});

describe('HTTPie -a user:pass', () => {
  it('redacts the password in what `bash -x` prints for http, https and xh, keeping the user name', async () => {
    await expectTracesScrubbed(
      ['http', 'https', 'xh'],
      [
        'http -a "$SECRET_USER:$SECRET" GET example.com/api',
        'http --auth "$SECRET_USER:$SECRET" example.com',
        'https -v -a "$SECRET_USER:$SECRET" example.com name=x',
        'http -a"$SECRET_USER:$SECRET" example.com',
        'xh -a "$SECRET_USER:$SECRET" example.com',
        'http -A bearer -a "$SECRET" example.com',
      ],
      (text, kinds) => {
        expect(kinds).toEqual([...Array(5).fill('password'), 'authorization']);
        expect(text).toMatch(
          new RegExp(`\\+ http -a '?${user}:\\[REDACTED:password\\]'? GET example.com/api\\n`),
        );
      },
    );
  });

  it('redacts every option form, in JSON and argument lists', () => {
    expectForms([
      [`http -a ${user}:${password} example.com`, `http -a ${user}:# example.com`],
      [
        `https --auth '${user}:${password}' POST api.example.com/v1 name=x`,
        `https --auth '${user}:#' POST api.example.com/v1 name=x`,
      ],
      [`http -a${user}:${password} example.com`, `http -a${user}:# example.com`],
      [
        `http --auth-type=digest -a "${user}:${password}" example.com`,
        `http --auth-type=digest -a "${user}:#" example.com`,
      ],
    ]);
    const argv = JSON.stringify(['http', '-a', `${user}:${password}`, 'example.com']);
    expect(JSON.parse(scrubber.scrubText(argv))).toEqual(['http', '-a', `${user}:${marker}`, 'example.com']);
    expect(scrubber.scrubText(`http --auth-type bearer --auth ${password} example.com`)).toBe(
      'http --auth-type bearer --auth [REDACTED:authorization] example.com',
    );
    // `--auth=user:pass` is redacted by the assignment rule (user name included).
    expect(scrubber.scrubText(`http --auth=${user}:${password} example.com`)).toBe(
      'http --auth=[REDACTED:authorization] example.com',
    );
  });

  it('leaves -a without a password (HTTPie asks), placeholders and -a of other commands alone', () => {
    expectLeftAlone([
      `http -a ${user} example.com`,
      `http -a ${user}: example.com`,
      'http -a "$API_USER:$API_PASSWORD" example.com',
      'http -A bearer -a "$TOKEN" example.com',
      'ls -a /home',
      'git add -a src',
      'python -m http.server -a 127.0.0.1',
      'tar -a -cf out.tar.zst src',
      'Use http -a followed by your user name to be asked for the password.',
    ]);
  });
});

describe('smbclient -U user%pass', () => {
  it('redacts the password in what `bash -x` prints for smbclient, rpcclient and net, keeping the user name', async () => {
    await expectTracesScrubbed(
      ['smbclient', 'rpcclient', 'net'],
      [
        'smbclient //fileserver/share -U "$SECRET_USER%$SECRET" -c ls',
        'smbclient //fileserver/share -U "CORP\\\\$SECRET_USER%$SECRET"',
        'smbclient -U"$SECRET_USER%$SECRET" -L fileserver',
        'smbclient //fileserver/share --user="$SECRET_USER%$SECRET"',
        'rpcclient -U "$SECRET_USER%$SECRET" 10.0.0.5 -c enumdomusers',
        'net ads join -U "administrator%$SECRET"',
        'smbclient //fileserver/share --password "$SECRET" -U "$SECRET_USER"',
        'smbclient //fileserver/share --password="$SECRET"',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(Array(8).fill('password'));
        expect(text).toContain(`CORP\\${user}%[REDACTED:password]`);
      },
    );
  });

  it('redacts every option form, in JSON and argument lists', () => {
    expectForms([
      [`smbclient //host/share -U ${user}%${password}`, `smbclient //host/share -U ${user}%#`],
      [
        `smbclient -U 'DOMAIN\\\\${user}%${password}' //host/share`,
        `smbclient -U 'DOMAIN\\\\${user}%#' //host/share`,
      ],
      [
        `smbclient -U "DOMAIN\\${user}%${password}" //host/share`,
        `smbclient -U "DOMAIN\\${user}%#" //host/share`,
      ],
      [`smbclient -U${user}%${password} -L host`, `smbclient -U${user}%# -L host`],
      [`smbclient //h/s --user ${user}%${password}`, `smbclient //h/s --user ${user}%#`],
      [`smbcacls //h/s file -U ${user}%${password}`, `smbcacls //h/s file -U ${user}%#`],
      [`smbget -U ${user}%${password} smb://h/s/f`, `smbget -U ${user}%# smb://h/s/f`],
      [`smbclient //h/s --password=${password}`, 'smbclient //h/s --password=#'],
    ]);
    const json = JSON.stringify({ cmd: `smbclient //h/s -U CORP\\${user}%${password} -c ls` });
    expect(JSON.parse(scrubber.scrubText(json))).toEqual({
      cmd: `smbclient //h/s -U CORP\\${user}%${marker} -c ls`,
    });
    const argv = JSON.stringify(['smbclient', '//h/s', '-U', `${user}%${password}`]);
    expect(JSON.parse(scrubber.scrubText(argv))).toEqual(['smbclient', '//h/s', '-U', `${user}%${marker}`]);
  });

  it('leaves -U without a password (smbclient asks), placeholders and -U of other commands alone', () => {
    expectLeftAlone([
      `smbclient //host/share -U ${user}`,
      `smbclient //host/share -U 'CORP\\${user}'`,
      'smbclient -N -L fileserver',
      'smbclient //h/s -U "$SMB_USER%$SMB_PASSWORD"',
      'smbclient //h/s --password-file=/etc/samba/pass',
      'pip install -U requests',
      'psql -h db -U app%ops appdb',
      "ps -U root -o pid,comm | awk '{print $1%2}'",
      'sudo -U alice%x -l',
    ]);
  });
});

describe('command lines whose password other rules redact', () => {
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
