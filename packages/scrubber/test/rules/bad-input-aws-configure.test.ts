import { describe, expect, it } from 'vitest';
import { expectForms, expectLeftAlone, expectTracesScrubbed, password } from '../helpers/command-lines.js';

// `aws configure set NAME VALUE` writes a credential given as the word after its name: the secret
// access key and the session token, with `default.` or `profile.NAME.` before the name, and
// `--profile NAME` before `set` or after the value (the real aws CLI takes every form below).

const forms = [
  'aws configure set aws_secret_access_key "$SECRET"',
  'aws configure set aws_session_token "$SECRET" --profile prod',
  'aws configure --profile prod set aws_secret_access_key "$SECRET"',
  'aws configure set default.aws_secret_access_key "$SECRET"',
  'aws configure set profile.prod.aws_session_token "$SECRET"',
  'aws --region eu-west-1 configure set aws_security_token "$SECRET"',
];

describe('aws configure set', () => {
  it('redacts the secret access key and session tokens in what `bash -x` prints', async () => {
    await expectTracesScrubbed(['aws'], forms, (text, kinds) => {
      expect(kinds).toEqual([
        'aws_secret_key',
        'token',
        'aws_secret_key',
        'aws_secret_key',
        'token',
        'token',
      ]);
      expect(text).toMatch(/\+ aws configure set aws_session_token '?\[REDACTED:token\]'? --profile prod/);
      expect(text).toMatch(
        /\+ aws configure --profile prod set aws_secret_access_key '?\[REDACTED:aws_secret_key\]/,
      );
      expect(text).toContain('set profile.prod.aws_session_token ');
    });
  });

  it('redacts the value as written by hand, quoted or not', () => {
    expectForms(
      [
        [`aws configure set aws_secret_access_key ${password}`, 'aws configure set aws_secret_access_key #'],
        [
          `aws configure set default.aws_secret_access_key '${password}' --profile x`,
          "aws configure set default.aws_secret_access_key '#' --profile x",
        ],
      ],
      'aws_secret_key',
    );
  });

  it('redacts a value after a continued line (LF and CRLF), also for nmcli and rabbitmqctl', () => {
    for (const newline of ['\n', '\r\n'])
      expectForms(
        [
          [
            `aws configure set \\${newline}  aws_secret_access_key \\${newline}  ${password}`,
            `aws configure set \\${newline}  aws_secret_access_key \\${newline}  #`,
          ],
        ],
        'aws_secret_key',
      );
    expectForms([
      [`nmcli con modify corp wifi-sec.psk \\\n  ${password}`, 'nmcli con modify corp wifi-sec.psk \\\n  #'],
      [`rabbitmqctl add_user deploy \\\r\n  ${password}`, 'rabbitmqctl add_user deploy \\\r\n  #'],
    ]);
  });

  it('redacts the value in argument lists (a container spec, a process list as JSON)', () => {
    expectForms(
      [
        [
          `["aws", "configure", "set", "aws_secret_access_key", "${password}"]`,
          '["aws", "configure", "set", "aws_secret_access_key", "#"]',
        ],
      ],
      'aws_secret_key',
    );
    expectForms(
      [
        [
          `command: ['aws', 'configure', '--profile', 'ci', 'set', 'aws_session_token', '${password}']`,
          "command: ['aws', 'configure', '--profile', 'ci', 'set', 'aws_session_token', '#']",
        ],
      ],
      'token',
    );
    expectForms([
      [
        `["nmcli", "con", "modify", "corp", "wifi-sec.psk", "${password}"]`,
        '["nmcli", "con", "modify", "corp", "wifi-sec.psk", "#"]',
      ],
    ]);
  });

  it('leaves other settings, reads and placeholders alone', () => {
    expectLeftAlone([
      'aws configure set region eu-west-1',
      'aws configure get aws_secret_access_key',
      'aws configure set aws_secret_access_key "$AWS_SECRET_ACCESS_KEY"',
      'echo set aws_secret_access_key later',
    ]);
  });
});
