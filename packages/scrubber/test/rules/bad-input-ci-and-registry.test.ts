import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// Formats an agent sees in CI and cluster work: GitHub Actions' `::add-mask::` command, a
// Kubernetes docker-registry Secret (`.dockerconfigjson`, base64 of JSON holding the password),
// and the SigV2 `Authorization: AWS KEY:SIGNATURE` header of S3-compatible stores.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

describe('CI logs, registry secrets and SigV2 headers', () => {
  it('redacts the value of ::add-mask:: in what a real shell prints, and leaves expressions alone', async () => {
    const value = fake.chars(ALPHABETS.alnum, 32);
    const { stdout, stderr } = await run('bash', ['-c', 'set -x; echo "::add-mask::$TOKEN"; echo "next"'], {
      env: { ...process.env, TOKEN: value },
    });
    const log = stderr + stdout;
    expect(log).toContain(value);
    const scrubbed = scrubber.scrubText(log);
    expect(scrubbed).not.toContain(value);
    expect(scrubbed).toContain('::add-mask::[REDACTED:secret]\n');
    for (const text of [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression is the sample
      'run: echo "::add-mask::${{ steps.login.outputs.token }}"',
      'echo "::add-mask::$DEPLOY_TOKEN"',
      '::add-mask::***',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });

  it('redacts a docker-registry Secret as kubectl prints it (YAML and JSON)', async () => {
    const password = `${fake.chars(ALPHABETS.alnum, 20)}7`;
    const auth = Buffer.from(`bot:${password}`).toString('base64');
    const config = JSON.stringify({ auths: { 'registry.example.com': { username: 'bot', password, auth } } });
    const encoded = Buffer.from(config).toString('base64');
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-registry-'));
    try {
      // What `kubectl create secret docker-registry ... --dry-run=client -o yaml` prints.
      const yaml = `apiVersion: v1\ndata:\n  .dockerconfigjson: ${encoded}\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\n`;
      const json = JSON.stringify(
        { apiVersion: 'v1', data: { '.dockercfg': encoded }, kind: 'Secret' },
        null,
        2,
      );
      await writeFile(join(directory, 'secret.yaml'), yaml);
      await writeFile(join(directory, 'secret.json'), json);
      for (const name of ['secret.yaml', 'secret.json']) {
        const text = await readFile(join(directory, name), 'utf8');
        const scrubbed = scrubber.scrubText(text);
        expect(scrubbed, name).not.toContain(encoded.slice(0, 40));
        expect(scrubbed, name).toMatch(/\.docker(?:configjson|cfg)"?: "?\[REDACTED:credential\]/);
        expect(scrubbed, name).toContain('kind');
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('redacts the signature of a SigV2 Authorization header', () => {
    const keyId = `AKIA${fake.chars(ALPHABETS.upperDigits, 16)}`;
    const signature = `${fake.chars(ALPHABETS.base64, 27)}=`;
    const scrubbed = scrubber.scrubText(
      `> PUT /bucket/object HTTP/1.1\r\n> Authorization: AWS ${keyId}:${signature}\r\n`,
    );
    expect(scrubbed).not.toContain(signature.slice(0, 20));
    expect(scrubbed).not.toContain(keyId);
    expect(scrubbed).toContain('> Authorization: AWS [REDACTED:');
  });
});
