import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback-server.js';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// `.netrc` content (`machine host login x password y`, one entry a line or spread over lines,
// and the `default` entry): the password values are credentials, hosts and logins are not.

const run = promisify(execFile);
const fake = createFakeSource();
const passwords = Array.from({ length: 4 }, () => `${fake.chars(ALPHABETS.alnum, 16)}5`);
const scrubber = createScrubber();
const leaks = (text: string): boolean => passwords.some((secret) => text.includes(secret));

describe('a real .netrc file', () => {
  let server: LoopbackServer;
  let port = 0;
  let dir = '';
  const authorizations: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scrubber-netrc-'));
    server = await startLoopbackServer((request, response) => {
      authorizations.push(request.headers.authorization ?? '');
      response.end('ok');
    });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('redacts every password of a netrc that curl really authenticates with, keeping hosts and logins', async () => {
    const [first, second, third, fourth] = passwords as [string, string, string, string];
    const netrc = [
      '# deploy credentials',
      'machine 127.0.0.1',
      '    login alice',
      `    password ${first}`,
      '',
      `machine api.internal.example login bob password ${second}`,
      `machine git.internal.example password ${third} login carol`,
      `default login anonymous password ${fourth}`,
      '',
    ].join('\n');
    const file = join(dir, 'netrc');
    await writeFile(file, netrc, { mode: 0o600 });
    // curl reads the file: each host gets its entry (the others resolve to this loopback server).
    const hosts: [string, string, string][] = [
      ['127.0.0.1', 'alice', first],
      ['api.internal.example', 'bob', second],
      ['git.internal.example', 'carol', third],
      ['elsewhere.example', 'anonymous', fourth],
    ];
    for (const [host] of hosts) {
      try {
        await run('curl', [
          '-sS',
          '-o',
          '/dev/null',
          '--netrc-file',
          file,
          '--resolve',
          `${host}:${port}:127.0.0.1`,
          `http://${host}:${port}/`,
        ]);
      } catch (error) {
        if (process.env.CI === 'true') throw error;
        console.warn(`skipped: curl is not available (${String(error)})`);
        return;
      }
    }
    expect(authorizations).toEqual(
      hosts.map(([, login, secret]) => `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`),
    );
    const { stdout } = await run('cat', [file]);
    const { text, findings } = scrubber.scrub(stdout);
    expect(leaks(text)).toBe(false);
    expect(findings.map((finding) => finding.kind)).toEqual(['password', 'password', 'password', 'password']);
    let expected = netrc;
    for (const secret of passwords) expected = expected.replace(secret, '[REDACTED:password]');
    expect(text).toBe(expected);
    expect(await readFile(file, 'utf8')).toBe(netrc);
  });
});

describe('netrc lines in command text', () => {
  const [secret] = passwords as [string];

  it('redacts netrc entries written by a command, quoted passwords, tabs and Windows line ends', () => {
    const cases: [string, string][] = [
      [
        `echo "machine github.com login x-access-token password ${secret}" >> ~/.netrc`,
        'echo "machine github.com login x-access-token password #" >> ~/.netrc',
      ],
      [
        `printf 'machine registry.example\\nlogin ci\\npassword %s\\n' "$TOKEN"\nmachine registry.example login ci password ${secret}\n`,
        `printf 'machine registry.example\\nlogin ci\\npassword %s\\n' "$TOKEN"\nmachine registry.example login ci password #\n`,
      ],
      [`machine\th\tlogin\tu\tpassword\t${secret}\r\n`, 'machine\th\tlogin\tu\tpassword\t#\r\n'],
      [`machine h login u password "${secret} with space"\n`, 'machine h login u password "#"\n'],
      [
        `machine h port 8443 login u account ops password ${secret}\n`,
        'machine h port 8443 login u account ops password #\n',
      ],
    ];
    for (const [text, expected] of cases) {
      expect(scrubber.scrubText(text), text).toBe(expected.replace('#', '[REDACTED:password]'));
    }
  });

  it("redacts a netrc file carried in a JSON string (a read tool's structured result)", () => {
    const [first, second] = passwords as [string, string];
    const content = `machine api.example.com\n\tlogin deploy\n\tpassword ${first}\r\ndefault login anonymous password ${second}\n`;
    const scrubbed = scrubber.scrubValue({ path: '/home/ci/.netrc', content, size: content.length });
    expect(scrubbed).toEqual({
      path: '/home/ci/.netrc',
      content: content.replace(first, '[REDACTED:password]').replace(second, '[REDACTED:password]'),
      size: content.length,
    });
    // The JSON text itself, as a log line would hold it.
    const line = JSON.stringify({ netrc: `machine h login u password ${first}` });
    expect(JSON.parse(scrubber.scrubText(line))).toEqual({
      netrc: 'machine h login u password [REDACTED:password]',
    });
  });

  it('leaves the word password in prose, placeholders and machines without a password alone', () => {
    for (const text of [
      'Enter the default password for this machine, then log in.',
      'On the build machine the login password is rotated weekly.',
      'default password is admin until you change it',
      'the machine learning login page password reset flow',
      'machine github.com login x-access-token password <your-token>',
      'machine github.com login x-access-token password $GITHUB_TOKEN',
      'machine github.com login x-access-token',
      'password',
      'Forgot password? Reset it from the login page.',
    ]) {
      expect(scrubber.scrub(text).findings, text).toEqual([]);
    }
  });
});
