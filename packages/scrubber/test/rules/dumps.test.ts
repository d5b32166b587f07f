import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback-server.js';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// Credentials in the dumps tools print: HTTP header dumps, env lists in the formats of
// kubectl, ECS, AWS SSM and docker inspect, and .env files with passphrases.

const run = promisify(execFile);
const fake = createFakeSource();
const session = fake.chars(ALPHABETS.alnum, 32);
const bearer = fake.chars(ALPHABETS.base64url, 40);
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;
const scrubber = createScrubber();
const leaks = (text: string): boolean => [session, bearer, password].some((secret) => text.includes(secret));

describe('HTTP header dumps', () => {
  let server: LoopbackServer;
  let port = 0;
  beforeAll(async () => {
    server = await startLoopbackServer((_request, response) => {
      response.setHeader('Set-Cookie', `sessionid=${session}; Path=/; HttpOnly`);
      response.end('ok');
    });
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
  });

  it('redacts Cookie, Set-Cookie and Authorization in real `curl -v` output', async () => {
    let stderr: string;
    try {
      ({ stderr } = await run('curl', [
        '-sv',
        '-H',
        `Cookie: sessionid=${session}; theme=dark`,
        '-H',
        `Authorization: Bearer ${bearer}`,
        `http://127.0.0.1:${port}/`,
      ]));
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      console.warn(`skipped: curl is not available (${String(error)})`);
      return;
    }
    expect(stderr).toContain(`Set-Cookie: sessionid=${session}`);
    const { text, findings } = scrubber.scrub(stderr);
    expect(leaks(text)).toBe(false);
    expect(findings.map((finding) => finding.kind).sort()).toEqual(['authorization', 'cookie', 'cookie']);
    expect(text).toContain('< Set-Cookie: sessionid=[REDACTED:cookie]; Path=/; HttpOnly');
    expect(text).toContain('> Cookie: [REDACTED:cookie]');
  });

  it('leaves short preference cookies alone', () => {
    expect(scrubber.scrub('Set-Cookie: lang=en; Path=/\r\nCookie: theme=dark\r\n').findings).toEqual([]);
  });
});

describe('env dumps', () => {
  it('kubectl YAML env lists, keeping valueFrom references and other variables', () => {
    const yaml = [
      '    env:',
      '    - name: DB_PASSWORD',
      `      value: ${password}`,
      '    - name: API_TOKEN',
      '      valueFrom:',
      '        secretKeyRef:',
      '          name: api',
      '          key: token',
      '    - name: PORT',
      '      value: "8080"',
      '',
    ].join('\n');
    expect(scrubber.scrubText(yaml)).toBe(yaml.replace(password, '[REDACTED:password]'));
  });

  it('ECS / Kubernetes JSON, AWS SSM parameters and docker inspect stay valid JSON', () => {
    const ecs = JSON.stringify(
      {
        environment: [
          { name: 'SESSION_SECRET', value: session },
          { name: 'PORT', value: '80' },
        ],
      },
      null,
      2,
    );
    expect(JSON.parse(scrubber.scrubText(ecs))).toEqual({
      environment: [
        { name: 'SESSION_SECRET', value: '[REDACTED:secret]' },
        { name: 'PORT', value: '80' },
      ],
    });
    const ssm = JSON.stringify({
      Parameter: { Name: '/prod/db/password', Type: 'SecureString', Value: password, Version: 3 },
    });
    expect(JSON.parse(scrubber.scrubText(ssm)).Parameter.Value).toBe('[REDACTED:password]');
    const inspect = JSON.stringify(
      [{ Config: { Env: [`DB_PASSWORD=${password}`, 'PATH=/usr/bin', `PWD=/app`] } }],
      null,
      4,
    );
    expect(JSON.parse(scrubber.scrubText(inspect))).toEqual([
      { Config: { Env: ['DB_PASSWORD=[REDACTED:password]', 'PATH=/usr/bin', 'PWD=/app'] } },
    ]);
  });

  it('a quoted passphrase with spaces on an .env line, not a quoted description elsewhere', () => {
    const passphrase = `correct horse ${password}`;
    expect(scrubber.scrubText(`DB_PASSWORD="${passphrase}"\nDB_HOST=db\n`)).toBe(
      'DB_PASSWORD="[REDACTED:password]"\nDB_HOST=db\n',
    );
    expect(scrubber.scrub('{"token": "The token used to sign requests"}').findings).toEqual([]);
  });
});
