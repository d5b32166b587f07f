import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

// Credentials kept in files that tools print: kubeconfig `client-key-data` (a PEM private key,
// base64-encoded) and a token given as the user name of a git remote.

/** Runs a tool the test needs; undefined (skipped) when it is not installed, except under CI. */
async function tool(command: string, args: readonly string[]): Promise<string | undefined> {
  try {
    return (await run(command, args, { maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    if (process.env.CI === 'true' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    console.warn(`skipped: ${command} is not installed`);
    return undefined;
  }
}

describe('credential files', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'scrubber-files-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("redacts a real private key in kubeconfig's client-key-data as kubectl prints it, and keeps the certificate", async () => {
    const keyFile = join(directory, 'client.key');
    const certFile = join(directory, 'client.crt');
    if (
      (await tool('openssl', [
        'genpkey',
        '-algorithm',
        'EC',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-out',
        keyFile,
      ])) === undefined
    )
      return;
    await tool('openssl', [
      'req',
      '-new',
      '-x509',
      '-key',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=admin',
      '-days',
      '1',
    ]);
    const kubeconfig = join(directory, 'config');
    for (const args of [
      ['config', 'set-cluster', 'dev', '--server=https://127.0.0.1:6443', '--insecure-skip-tls-verify=true'],
      [
        'config',
        'set-credentials',
        'admin',
        `--client-key=${keyFile}`,
        `--client-certificate=${certFile}`,
        '--embed-certs=true',
      ],
      ['config', 'set-context', 'dev', '--cluster=dev', '--user=admin'],
    ])
      if ((await tool('kubectl', [...args, `--kubeconfig=${kubeconfig}`])) === undefined) return;
    for (const output of ['yaml', 'json']) {
      const printed = await tool('kubectl', [
        'config',
        'view',
        '--raw',
        '-o',
        output,
        `--kubeconfig=${kubeconfig}`,
      ]);
      if (printed === undefined) return;
      const keyData = /"?client-key-data"?: "?([A-Za-z0-9+/=]+)/.exec(printed)?.[1] ?? '';
      const certData = /"?client-certificate-data"?: "?([A-Za-z0-9+/=]+)/.exec(printed)?.[1] ?? '';
      expect(Buffer.from(keyData, 'base64').toString()).toContain('PRIVATE KEY-----');
      const { text, findings } = scrubber.scrub(printed);
      expect(text, output).not.toContain(keyData.slice(40, 80));
      expect(text, output).toContain('client-key-data');
      expect(text, output).toContain(certData);
      expect(findings.map((finding) => finding.kind)).toContain('private_key');
    }
  });

  it('redacts base64-encoded private keys in Kubernetes secrets and leaves encoded certificates alone', () => {
    const pem = (label: string) =>
      `-----BEGIN ${label}-----\n${fake.base64(48)}\n${fake.base64(48)}\n-----END ${label}-----\n`;
    for (const label of [
      'PRIVATE KEY',
      'RSA PRIVATE KEY',
      'EC PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'ENCRYPTED PRIVATE KEY',
    ]) {
      const encoded = Buffer.from(pem(label)).toString('base64');
      const secret = `apiVersion: v1\nkind: Secret\ndata:\n  tls.key: ${encoded}\n  tls.crt: LS0t\n`;
      expect(scrubber.scrubText(secret), label).toBe(
        // Every data value of a Secret is redacted (kubernetes_secret); the key's kind comes first.
        'apiVersion: v1\nkind: Secret\ndata:\n  tls.key: [REDACTED:private_key]\n  tls.crt: [REDACTED:secret]\n',
      );
      expect(scrubber.scrubText(JSON.stringify({ data: { 'tls.key': encoded } }))).toBe(
        '{"data":{"tls.key":"[REDACTED:private_key]"}}',
      );
    }
    const certificate = Buffer.from(pem('CERTIFICATE')).toString('base64');
    const publicKey = Buffer.from(pem('PUBLIC KEY')).toString('base64');
    expect(scrubber.scrub(`tls.crt: ${certificate}\nca.pub: ${publicKey}\n`).findings).toEqual([]);
  });

  it('redacts a token given as the user name of a real git remote', async () => {
    const token = fake.chars(ALPHABETS.alnum, 40);
    const repository = join(directory, 'repo');
    if ((await tool('git', ['init', '-q', repository])) === undefined) return;
    await tool('git', [
      '-C',
      repository,
      'remote',
      'add',
      'origin',
      `https://${token}@github.com/team/app.git`,
    ]);
    await tool('git', [
      '-C',
      repository,
      'remote',
      'add',
      'mirror',
      'https://alice@git.example.com/team/app.git',
    ]);
    const remotes = (await tool('git', ['-C', repository, 'remote', '-v'])) ?? '';
    expect(remotes).toContain(token);
    const scrubbed = scrubber.scrubText(remotes);
    expect(scrubbed).not.toContain(token);
    expect(scrubbed).toContain('https://[REDACTED:url_token]@github.com/team/app.git');
    expect(scrubbed).toContain('https://alice@git.example.com/team/app.git');
    expect(
      scrubber.scrub(
        'https://first.last@example.com https://deploy-bot-production@ci.example.com ssh://git@github.com/a/b',
      ).findings,
    ).toEqual([]);
  });
});
