import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

const run = promisify(execFile);

// Passwords of lftp (`-u user,password`), gpg (`--passphrase WORD`), NetworkManager's nmcli
// (`password WORD`, `wifi-sec.psk WORD`, `802-1x.password WORD`) and rabbitmqctl
// (`add_user NAME PASSWORD`): given as the next word or a positional argument, also in argument
// lists. nmcli's field lists name a secret property without setting it.

describe('lftp -u user,password', () => {
  it('redacts the password in what `bash -x` prints, also in an -e open command', async () => {
    await expectTracesScrubbed(
      ['lftp'],
      [
        'lftp -u "$SECRET_USER,$SECRET" sftp://files.example.com',
        `lftp -e "open -u $SECRET_USER,$SECRET files.example.com; mirror; bye"`,
      ],
      (text, kinds) => {
        expect(kinds).toEqual(['password', 'password']);
        // bash quotes the word (it holds a comma) when the password needs it.
        expect(text).toMatch(new RegExp(`\\+ lftp -u '?${user},\\[REDACTED:password\\]'? sftp://files`));
        expect(text).toContain(`'open -u ${user},${marker} files.example.com; mirror; bye'`);
      },
    );
  });

  it('leaves -u without a password (lftp asks) and -u of other commands alone', () => {
    expectLeftAlone([
      `lftp -u ${user} sftp://files.example.com`,
      'git push -u origin main,dev',
      `docker run -u 1000,1000 alpine`,
    ]);
  });
});

describe('gpg --passphrase WORD', () => {
  it('redacts the passphrase of a real gpg that used it, and leaves the other passphrase options alone', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-gpg-'));
    try {
      await writeFile(join(directory, 'plain.txt'), 'hello\n');
      const args = [
        '--homedir',
        directory,
        '--batch',
        '--pinentry-mode',
        'loopback',
        '--passphrase',
        password,
        '--symmetric',
        '--output',
        join(directory, 'plain.gpg'),
        join(directory, 'plain.txt'),
      ];
      try {
        await run('gpg', args);
        const { stdout } = await run('gpg', [
          '--homedir',
          directory,
          '--batch',
          '--pinentry-mode',
          'loopback',
          '--passphrase',
          password,
          '--decrypt',
          join(directory, 'plain.gpg'),
        ]);
        expect(stdout).toBe('hello\n'); // gpg took the passphrase from the command line
      } catch (error) {
        if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        console.warn('skipped the gpg run: gpg is not installed');
      }
      const line = `gpg ${args.join(' ')}`;
      expect(scrubber.scrubText(line)).toBe(line.replace(password, marker));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    expectForms([
      [`gpg2 --batch --passphrase '${password}' -d a.gpg`, "gpg2 --batch --passphrase '#' -d a.gpg"],
    ]);
    expectLeftAlone([
      'gpg --batch --passphrase-file /run/secrets/gpg -d a.gpg',
      'gpg --batch --passphrase-fd 0 -d a.gpg',
      'gpg --batch --passphrase "$GPG_PASSPHRASE" -d a.gpg',
    ]);
  });
});

describe('ssh-keygen -N / -P passphrase', () => {
  it('redacts the passphrases of a real ssh-keygen that made a key and read it back', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-ssh-'));
    const key = join(directory, 'id_ed25519');
    const create = ['-q', '-t', 'ed25519', '-N', password, '-C', 'ci', '-f', key];
    const read = ['-y', '-P', password, '-f', key];
    try {
      try {
        await run('ssh-keygen', create);
        const { stdout } = await run('ssh-keygen', read);
        expect(stdout).toMatch(/^ssh-ed25519 /); // the passphrase opened the key
      } catch (error) {
        if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        console.warn('skipped the ssh-keygen run: ssh-keygen is not installed');
      }
      for (const args of [create, read]) {
        const line = `ssh-keygen ${args.join(' ')}`;
        expect(scrubber.scrubText(line)).toBe(line.replace(password, marker));
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    expectLeftAlone([
      `ssh-keygen -t ed25519 -N '' -f ${user}`,
      'ssh -N -L 8080:localhost:80 host',
      'scp -P 2222 a host:b',
    ]);
  });
});

describe('nmcli password WORD', () => {
  it('redacts Wi-Fi keys and 802.1X passwords given to nmcli', () => {
    expectForms([
      [
        `nmcli device wifi connect HomeNet password ${password}`,
        'nmcli device wifi connect HomeNet password #',
      ],
      [
        `nmcli dev wifi connect "Home Net" password "${password}" ifname wlan0`,
        'nmcli dev wifi connect "Home Net" password "#" ifname wlan0',
      ],
      [`nmcli con modify HomeNet wifi-sec.psk ${password}`, 'nmcli con modify HomeNet wifi-sec.psk #'],
      [
        `sudo nmcli connection add type wifi ssid corp 802-1x.identity ${user} 802-1x.password '${password}'`,
        `sudo nmcli connection add type wifi ssid corp 802-1x.identity ${user} 802-1x.password '#'`,
      ],
      [
        `nmcli c m corp 802-11-wireless-security.psk ${password} connection.autoconnect yes`,
        'nmcli c m corp 802-11-wireless-security.psk # connection.autoconnect yes',
      ],
      [`nmcli> set 802-1x.password ${password}`, 'nmcli> set 802-1x.password #'],
      [
        `nmcli con add type wifi ssid x \\\n  wifi-sec.key-mgmt wpa-psk \\\n  wifi-sec.psk ${password}`,
        'nmcli con add type wifi ssid x \\\n  wifi-sec.key-mgmt wpa-psk \\\n  wifi-sec.psk #',
      ],
    ]);
  });

  it('leaves nmcli without a password, and the word password elsewhere, alone', () => {
    expectLeftAlone([
      'nmcli device wifi connect HomeNet --ask',
      'nmcli -s connection show HomeNet | grep psk',
      'nmcli con modify HomeNet wifi-sec.psk-flags 1',
      'nmcli con modify HomeNet wifi-sec.psk "$WIFI_PSK"',
      'Enter the password below to continue',
      `ssh ${user}@host password ${password}`,
    ]);
  });
});

describe('rabbitmqctl add_user NAME PASSWORD', () => {
  it('redacts the password in what `bash -x` prints for add_user and change_password', async () => {
    await expectTracesScrubbed(
      ['rabbitmqctl'],
      [
        'rabbitmqctl add_user "$SECRET_USER" "$SECRET"',
        'rabbitmqctl -n rabbit@mq change_password "$SECRET_USER" "$SECRET"',
        'rabbitmqctl authenticate_user "$SECRET_USER" "$SECRET"',
      ],
      (text, kinds) => {
        expect(kinds).toEqual(['password', 'password', 'password']);
        expect(text).toContain(`+ rabbitmqctl add_user ${user} `);
      },
    );
  });

  it('leaves add_user without a password and other subcommands alone', () => {
    expectLeftAlone([
      `rabbitmqctl add_user ${user}`,
      `rabbitmqctl set_user_tags ${user} administrator`,
      `rabbitmqctl add_user ${user} --pre-hashed-password`,
      `rabbitmqctl authenticate_user ${user} "$RABBIT_PASS"`,
    ]);
  });
});

describe('positional passwords in argument lists and nmcli field lists', () => {
  it('redacts rabbitmqctl passwords in an argument list', () => {
    expectForms([
      [`["rabbitmqctl", "add_user", "deploy", "${password}"]`, '["rabbitmqctl", "add_user", "deploy", "#"]'],
      [
        `['rabbitmqctl', 'authenticate_user', 'deploy', '${password}']`,
        "['rabbitmqctl', 'authenticate_user', 'deploy', '#']",
      ],
    ]);
  });

  it('leaves the word after a property named by -f/--fields or -g/--get-values alone', () => {
    expectLeftAlone([
      'nmcli -f 802-11-wireless-security.psk connection show Home',
      'nmcli --fields wifi-sec.psk connection show Office',
      'nmcli -s -g 802-11-wireless-security.psk connection show Home',
      'nmcli --get-values=802-1x.password connection show corp',
    ]);
  });
});
