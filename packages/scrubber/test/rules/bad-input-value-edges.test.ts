import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// Where a value begins and ends: a `<` or `>` in a URL's password, XML text mixed with a
// CDATA section, JSON escaped three levels deep and more, and an emoji or a no-break space
// printed right after an unquoted value.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();
const secret = () => `${fake.chars(ALPHABETS.alnum, 12)}7`;

describe('edges of values', () => {
  it('redacts a URL password holding < or > in what git prints for a real remote', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-url-angle-'));
    const passwords = [
      `${fake.chars(ALPHABETS.alnum, 6)}<${fake.chars(ALPHABETS.alnum, 6)}9`,
      `${fake.chars(ALPHABETS.alnum, 6)}>${fake.chars(ALPHABETS.alnum, 6)}9`,
      `${fake.chars(ALPHABETS.alnum, 4)}<${fake.chars(ALPHABETS.alnum, 4)}>${fake.chars(ALPHABETS.alnum, 4)}`,
    ];
    try {
      await run('git', ['init', '-q', directory]);
      for (const [index, password] of passwords.entries())
        await run(
          'git',
          ['remote', 'add', `r${index}`, `https://deploy:${password}@git.example.com/team/app.git`],
          {
            cwd: directory,
          },
        );
      const { stdout: remotes } = await run('git', ['remote', '-v'], { cwd: directory });
      const { stdout: config } = await run('git', ['config', '-l', '--local'], { cwd: directory });
      const text = `${remotes}${config}postgres://app:${passwords[2]}@db.internal:5432/app\n`;
      const scrubbed = scrubber.scrubText(text);
      for (const password of passwords) {
        expect(text).toContain(password);
        expect(scrubbed).not.toContain(password);
      }
      expect(scrubbed).toContain(
        'r0\thttps://deploy:[REDACTED:url_password]@git.example.com/team/app.git (fetch)',
      );
      expect(scrubbed).toContain('remote.r1.url=https://deploy:[REDACTED:url_password]@git.example.com/');
      // Angle-bracketed placeholders stay.
      expect(scrubber.scrub('postgres://<user>:<password>@host/db').findings).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('redacts the text of an XML element that mixes plain text and CDATA sections', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-xml-mixed-'));
    const [head, middle, tail] = [secret(), secret(), secret()];
    const pure = secret();
    try {
      const path = join(directory, 'settings.xml');
      await writeFile(
        path,
        `<settings><servers>\n<server><id>a</id><password>${head}<![CDATA[${middle}]]>${tail}</password></server>\n<server><id>b</id><password><![CDATA[${middle}]]>${tail}</password></server>\n<server><id>c</id><password>\n  <![CDATA[${pure}]]>\n</password></server>\n</servers></settings>\n`,
      );
      const text = await readFile(path, 'utf8');
      const scrubbed = scrubber.scrubText(text);
      for (const value of [head, middle, tail, pure]) {
        expect(text).toContain(value);
        expect(scrubbed).not.toContain(value);
      }
      expect(scrubbed).toContain('<id>a</id><password>[REDACTED:password]</password>');
      expect(scrubbed).toContain('<id>b</id><password>[REDACTED:password]</password>');
      // A value all in one section keeps the section's markup.
      expect(scrubbed).toContain('<password>\n  <![CDATA[[REDACTED:password]]]>\n</password>');
      // Elements holding other elements stay.
      expect(scrubber.scrub('<password><![CDATA[x]]><b>bold</b></password>').findings).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('redacts JSON escaped two to five levels deep (3 to 31 backslashes), as a real process logs it', async () => {
    const password = secret();
    const quoted = `${fake.chars(ALPHABETS.alnum, 6)}"${fake.chars(ALPHABETS.alnum, 6)}\\9`;
    // A child process wraps the record in a log line's `message` string five times over.
    const script =
      'let value = { user: "deploy", password: process.argv[1], token: process.argv[2] };' +
      'for (let level = 0; level < 5; level++) { value = { message: JSON.stringify(value) };' +
      ' if (level >= 1) console.log(JSON.stringify(value)); }';
    const { stdout } = await run(process.execPath, ['-e', script, password, quoted]);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const [index, count] of [3, 7, 15, 31].entries())
      expect(lines[index]).toContain(`${'\\'.repeat(count)}"password${'\\'.repeat(count)}":`);
    for (const line of lines) {
      const scrubbed = scrubber.scrubText(line);
      expect(line).toContain(password);
      expect(scrubbed).not.toContain(password);
      for (const part of quoted.split(/["\\]/)) expect(scrubbed).not.toContain(part);
      expect(scrubbed).toContain('deploy');
      expect(scrubbed.match(/\[REDACTED:password\]/g)).toHaveLength(1);
      expect(scrubbed.match(/\[REDACTED:token\]/g)).toHaveLength(1);
      expect(() => JSON.parse(scrubbed)).not.toThrow();
    }
  });

  it('gives back an emoji or a no-break space printed right after an unquoted value', async () => {
    const [token, password, netrc] = [secret(), secret(), secret()];
    const emojiToken = `${secret()}🔑`;
    // What a setup script prints: status emoji right after values, and U+00A0 (which some
    // terminals and copy-pastes put for a space) after a value at the end of a line.
    const script = [
      'printf "API_TOKEN=%s✅ saved\\n" "$T"',
      'printf "curl -u deploy:%s\\302\\240\\n" "$P"',
      'printf "machine ci.example.com login bot password %s\\302\\240\\n" "$N"',
      'printf "{\\"token\\": \\"%s\\"}\\n" "$E"',
    ].join('; ');
    const { stdout } = await run('sh', ['-c', script], {
      env: { ...process.env, T: token, P: password, N: netrc, E: emojiToken },
    });
    const scrubbed = scrubber.scrubText(stdout);
    for (const value of [token, password, netrc, emojiToken.slice(0, -2)]) {
      expect(stdout).toContain(value);
      expect(scrubbed).not.toContain(value);
    }
    expect(scrubbed).toContain('API_TOKEN=[REDACTED:token]✅ saved\n');
    expect(scrubbed).toContain('curl -u deploy:[REDACTED:password]\u00a0\n');
    expect(scrubbed).toContain('password [REDACTED:password]\u00a0\n');
    // A quoted value holds what its quotes hold: the emoji is part of it.
    expect(scrubbed).toContain('{"token": "[REDACTED:token]"}');
    // An emoji inside an unquoted value stays part of it.
    const inside = `${fake.chars(ALPHABETS.alnum, 6)}🔑${fake.chars(ALPHABETS.alnum, 6)}`;
    expect(scrubber.scrubText(`password=${inside} ok`)).toBe('password=[REDACTED:password] ok');
  });
});
