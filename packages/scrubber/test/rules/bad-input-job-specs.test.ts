import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// A job spec names its command apart from its arguments: Kubernetes' `command:` and `args:`
// (the command as the first item of a block list, as kubectl prints it, or in a key of its own),
// ECS's `entryPoint` and `command`, Docker's `Entrypoint` and `Cmd`, a CI runner's JSON with the
// `command` key after the `args` list. A positional password among the arguments is redacted.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();
const secret = () => `${fake.chars(ALPHABETS.alnum, 20)}7`;

/** What `kubectl create job --dry-run=client` prints for `command`; undefined when kubectl is missing (fails under CI). */
async function kubectlJob(format: 'yaml' | 'json', command: readonly string[]): Promise<string | undefined> {
  try {
    const args = ['create', 'job', 'setup', '--image=amazon/aws-cli', '--dry-run=client', '-o', format, '--'];
    const { stdout } = await run('kubectl', [...args, ...command]);
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && process.env.CI !== 'true') {
      console.warn('kubectl is not installed: skipping the kubectl part');
      return undefined;
    }
    throw error;
  }
}

describe('positional passwords in job specs', () => {
  it('redacts them in the manifests kubectl prints (command as a block list, and pretty JSON)', async () => {
    const [key, password] = [secret(), secret()];
    const yaml = await kubectlJob('yaml', ['aws', 'configure', 'set', 'aws_secret_access_key', key]);
    const json = await kubectlJob('json', ['rabbitmqctl', 'add_user', 'deploy', password]);
    if (yaml === undefined || json === undefined) return;
    expect(yaml).toMatch(/- command:\n\s+- aws\n/);
    const scrubbedYaml = scrubber.scrubText(yaml);
    expect(yaml).toContain(key);
    expect(scrubbedYaml).not.toContain(key);
    expect(scrubbedYaml).toMatch(/- aws_secret_access_key\n\s+- \[REDACTED:aws_secret_key\]\n/);
    const scrubbedJson = scrubber.scrubText(json);
    expect(json).toContain(password);
    expect(scrubbedJson).not.toContain(password);
    expect(scrubbedJson).toMatch(/"deploy",\n\s+"\[REDACTED:password\]"\n/);
    expect(() => JSON.parse(scrubbedJson)).not.toThrow();
  });

  it('redacts them in spec files whose command key comes before or after the arguments', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-job-spec-'));
    const values = [secret(), secret(), secret(), secret(), secret(), secret()];
    const [k8s, flow, ecs, docker, runner, wifi] = values;
    try {
      const files: Record<string, string> = {
        'pod.yaml': `spec:\n  containers:\n    - name: setup\n      args:\n        - configure\n        - set\n        - aws_secret_access_key\n        - ${k8s}\n      command:\n        - /usr/local/bin/aws\n`,
        'flow.yaml': `args: [configure, set, aws_session_token, ${flow}]\ncommand: [aws]\n`,
        'task.json': JSON.stringify(
          { entryPoint: ['aws'], command: ['configure', 'set', 'aws_secret_access_key', ecs] },
          null,
          2,
        ),
        'inspect.json': JSON.stringify([
          { Config: { Cmd: ['configure', 'set', 'aws_secret_access_key', docker], Entrypoint: ['aws'] } },
        ]),
        'runner.json': JSON.stringify({ args: ['add_user', 'deploy', runner], command: 'rabbitmqctl' }),
        'wifi.json': JSON.stringify({
          args: ['device', 'wifi', 'connect', 'Home', 'password', wifi],
          command: 'nmcli',
        }),
      };
      let all = '';
      for (const [name, content] of Object.entries(files)) {
        await writeFile(join(directory, name), content);
        all += `${await readFile(join(directory, name), 'utf8')}\n`;
      }
      const scrubbed = scrubber.scrubText(all);
      for (const value of values) {
        expect(all).toContain(value as string);
        expect(scrubbed).not.toContain(value as string);
      }
      expect(scrubbed).toContain('args: [configure, set, aws_session_token, [REDACTED:token]]\n');
      expect(scrubbed).toContain(
        '"args":["add_user","deploy","[REDACTED:password]"],"command":"rabbitmqctl"',
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('leaves the arguments of other commands and of aws configure get alone', () => {
    const value = secret();
    for (const text of [
      `{"args":["configure","set","aws_secret_access_key","${value}"],"command":"echo"}`,
      `args: ["configure","get","aws_secret_access_key","--profile","ci"]\ncommand: aws`,
      `{"args":["configure","set","aws_secret_access_key","${value}"]}, {"command":"aws"}`,
      'args:\n  - add_user\n  - deploy\nenv:\n  - name: X\ncommand: [rabbitmqctl]',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });

  it('pairs a command key only with the arguments of its own container', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-job-containers-'));
    const [first, second, own] = [secret(), secret(), secret()];
    try {
      // Three containers: the first names a command, the second gives arguments only (its image's
      // entrypoint runs them), the third names its command after its arguments.
      const pod = [
        'apiVersion: v1',
        'kind: Pod',
        'spec:',
        '  containers:',
        '    - name: lister',
        '      command: [aws]',
        '      args: [s3, ls]',
        '    - name: config-echo',
        '      image: busybox',
        `      args: [configure, set, aws_secret_access_key, ${first}]`,
        '    - name: printer',
        '      args:',
        '        - configure',
        '        - set',
        '        - aws_session_token',
        `        - ${second}`,
        '    - name: setup',
        `      args: [configure, set, aws_secret_access_key, ${own}]`,
        '      command: [aws]',
        '',
      ].join('\n');
      const next = ['    - name: last', '      command:', '        - aws', ''].join('\n');
      await writeFile(join(directory, 'pod.yaml'), pod + next);
      const text = await readFile(join(directory, 'pod.yaml'), 'utf8');
      const scrubbed = scrubber.scrubText(text);
      // Arguments of containers without a command of their own are not aws's.
      expect(scrubbed).toContain(`args: [configure, set, aws_secret_access_key, ${first}]\n`);
      expect(scrubbed).toContain(`        - ${second}\n`);
      expect(scrubbed).not.toContain(own);
      expect(scrubbed).toContain(
        'args: [configure, set, aws_secret_access_key, [REDACTED:aws_secret_key]]\n      command: [aws]',
      );
      // Pretty JSON of the same pod: the objects' braces already keep containers apart.
      const json = JSON.stringify(
        {
          containers: [
            { name: 'lister', command: ['aws'] },
            { name: 'echo', args: ['configure', 'set', 'aws_secret_access_key', first] },
          ],
        },
        null,
        2,
      );
      expect(scrubber.scrub(json).findings).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
