import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback-server.js';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// `curl -u user:password` (and `-uuser:pass`, `--user`, `-U`/`--proxy-user`) in command text
// and logs: the password after the first colon is a credential, the user name is not.

const run = promisify(execFile);
const fake = createFakeSource();
const user = `svc-${fake.chars('abcdefghijklmnopqrstuvwxyz', 6)}`;
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
const scrubber = createScrubber();

describe('curl -u in real command traces', () => {
  let server: LoopbackServer;
  let port = 0;
  const authorizations: string[] = [];
  beforeAll(async () => {
    server = await startLoopbackServer((request, response) => {
      authorizations.push(request.headers.authorization ?? '');
      response.end('ok');
    });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
  });

  it('redacts the password in what `bash -x` prints for a curl command that really authenticated', async () => {
    // One plain password, and one that makes bash quote the word in its trace.
    for (const secret of [
      password,
      `${fake.chars(ALPHABETS.alnum, 10)}!$${fake.chars(ALPHABETS.alnum, 4)}`,
    ]) {
      let stderr: string;
      try {
        ({ stderr } = await run(
          'bash',
          [
            '-xc',
            [
              'curl -sS -o /dev/null -u "$CURL_USER:$CURL_PASS" "$CURL_URL"',
              'curl -o /dev/null --user "$CURL_USER:$CURL_PASS" "$CURL_URL"',
              'curl -o /dev/null -sSu "$CURL_USER:$CURL_PASS" "$CURL_URL"',
              'curl -o /dev/null -sS --oauth2-bearer "$CURL_PASS" "$CURL_URL"',
            ].join('; '),
          ],
          {
            env: {
              ...process.env,
              CURL_USER: user,
              CURL_PASS: secret,
              CURL_URL: `http://127.0.0.1:${port}/`,
            },
          },
        ));
      } catch (error) {
        if (process.env.CI === 'true') throw error;
        console.warn(`skipped: bash or curl is not available (${String(error)})`);
        return;
      }
      const basic = `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
      // The server really got these credentials.
      expect(authorizations.slice(-4)).toEqual([basic, basic, basic, `Bearer ${secret}`]);
      expect(stderr).toContain(secret);
      const { text, findings } = scrubber.scrub(stderr);
      expect(text).not.toContain(secret);
      expect(findings.map((finding) => finding.kind)).toEqual([
        'password',
        'password',
        'password',
        'authorization',
      ]);
      expect(text).toContain(`${user}:[REDACTED:password]`);
    }
  });
  it('redacts a glued password with spaces in full, as `bash -x` quotes the whole word', async () => {
    const secret = `${fake.chars(ALPHABETS.alnum, 8)} ${fake.chars(ALPHABETS.alnum, 8)}`;
    let stderr: string;
    try {
      ({ stderr } = await run(
        'bash',
        ['-xc', 'curl -sS -o /dev/null -u"$CURL_USER:$CURL_PASS" "$CURL_URL"'],
        {
          env: { ...process.env, CURL_USER: user, CURL_PASS: secret, CURL_URL: `http://127.0.0.1:${port}/` },
        },
      ));
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      console.warn(`skipped: bash or curl is not available (${String(error)})`);
      return;
    }
    expect(authorizations.at(-1)).toBe(`Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`);
    expect(stderr).toContain(`'-u${user}:${secret}'`);
    expect(scrubber.scrubText(stderr)).toContain(`'-u${user}:[REDACTED:password]' http`);
    expect(scrubber.scrubText(`["curl", "-sSu${user}:${secret}"]`)).toBe(
      `["curl", "-sSu${user}:[REDACTED:password]"]`,
    );
  });
});

describe('curl -u forms', () => {
  it('redacts the password of every option form, quoted or not, and keeps the user name', () => {
    const cases: [string, string][] = [
      [
        `curl -u ${user}:${password} https://api.example.com/v1`,
        `curl -u ${user}:# https://api.example.com/v1`,
      ],
      [
        `curl -u${user}:${password} https://api.example.com/v1`,
        `curl -u${user}:# https://api.example.com/v1`,
      ],
      [
        `curl -sS --user ${user}:${password} -X POST https://a`,
        `curl -sS --user ${user}:# -X POST https://a`,
      ],
      [`curl --user '${user}:${password}' https://a`, `curl --user '${user}:#' https://a`],
      [`curl -u "${user}:${password}" https://a`, `curl -u "${user}:#" https://a`],
      [
        `curl -x http://proxy:3128 -U ${user}:${password} https://a`,
        `curl -x http://proxy:3128 -U ${user}:# https://a`,
      ],
      [`curl --proxy-user ${user}:${password} https://a`, `curl --proxy-user ${user}:# https://a`],
      [`/usr/bin/curl -u ${user}:${password}`, `/usr/bin/curl -u ${user}:#`],
      [`curl -u ${user}:${password}:${password} https://a`, `curl -u ${user}:# https://a`],
      [
        `curl -sS \\\n  -H 'Accept: application/json' \\\n  -u ${user}:${password} \\\n  https://api.example.com/v1\n`,
        `curl -sS \\\n  -H 'Accept: application/json' \\\n  -u ${user}:# \\\n  https://api.example.com/v1\n`,
      ],
      [`['curl', '-u', '${user}:${password}', 'https://a']`, `['curl', '-u', '${user}:#', 'https://a']`],
      // Short options in a cluster: curl takes what follows u (or the next argument) as the value.
      [`curl -sSu ${user}:${password} https://a`, `curl -sSu ${user}:# https://a`],
      [`curl -vu${user}:${password} https://a`, `curl -vu${user}:# https://a`],
      [
        `curl -sSUproxy:${password} -x http://p:3128 https://a`,
        'curl -sSUproxy:# -x http://p:3128 https://a',
      ],
      [`curl -s --oauth2-bearer ${password} https://a`, 'curl -s --oauth2-bearer # https://a'],
      [
        `curl --cert client.pem --pass '${password}' https://a`,
        "curl --cert client.pem --pass '#' https://a",
      ],
    ];
    for (const [text, expected] of cases) {
      const kind = text.includes('oauth2') ? 'authorization' : 'password';
      expect(scrubber.scrubText(text), text).toBe(expected.replace('#', `[REDACTED:${kind}]`));
    }
    const json = JSON.stringify({ cmd: `curl -u ${user}:${password} https://a`, exit: 0 });
    expect(JSON.parse(scrubber.scrubText(json))).toEqual({
      cmd: `curl -u ${user}:[REDACTED:password] https://a`,
      exit: 0,
    });
    const argv = JSON.stringify(['curl', '-sS', '-u', `${user}:${password}`, 'https://a']);
    expect(JSON.parse(scrubber.scrubText(argv))).toEqual([
      'curl',
      '-sS',
      '-u',
      `${user}:[REDACTED:password]`,
      'https://a',
    ]);
  });

  it('gives the one-shot output in a stream', () => {
    const text = `${'x'.repeat(200)}\n$ curl -sS \\\n  -u ${user}:${password} \\\n  https://a\n${'y'.repeat(300)}\n`;
    const oneShot = scrubber.scrubText(text);
    expect(oneShot).not.toContain(password);
    for (const size of [1, 5, 64, 301]) {
      const stream = scrubber.createStreamScrubber();
      let out = '';
      for (let index = 0; index < text.length; index += size)
        out += stream.write(text.slice(index, index + size));
      expect(out + stream.flush()).toBe(oneShot);
    }
  });

  it('leaves -u without a password, placeholders and other commands with -u alone', () => {
    for (const text of [
      `curl -u ${user} https://api.example.com/v1`,
      `curl -u ${user}: https://api.example.com/v1`,
      'curl -u "$API_USER:$API_PASSWORD" https://a',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the sample
      'curl -u "${API_USER}:${API_TOKEN}" https://a',
      'curl -u user:password https://a',
      'curl -u USER:PASS https://a',
      "curl --user-agent 'Mozilla/5.0 (X11; Linux x86_64)' https://a",
      'docker run --rm -u 1000:1000 alpine id',
      'docker exec -u www-data:www-data web php artisan migrate',
      'git push -u origin main:main',
      'curl --oauth2-bearer "$ACCESS_TOKEN" https://a',
      'curl -sSL https://example.com/install.sh | sh -s -- -u admin:hunter22',
      'curl --passive-ftp ftp://a',
      'curl -fsSL -o get-docker.sh https://get.docker.com',
      'Authenticate with the -u flag: give the user name and the password separated by a colon.',
    ]) {
      expect(scrubber.scrub(text).findings, text).toEqual([]);
    }
  });
});
