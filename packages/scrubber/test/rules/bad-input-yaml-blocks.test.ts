import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const scrubber = createScrubber();
const secret = () => `${fake.chars(ALPHABETS.alnum, 14)}7`;

function streamAll(text: string, cut: number): string {
  const stream = scrubber.createStreamScrubber();
  let out = '';
  for (let at = 0; at < text.length; at += cut) out += stream.write(text.slice(at, at + cut));
  return out + stream.flush();
}

// YAML block scalars (`password: |`, `token: >-`): the value is on the lines after the key, as
// Kubernetes Secrets' stringData, Helm values and Ansible vars write multi-line or long values.

describe('YAML block scalar values', () => {
  it('redacts a credential written as a block scalar in a real manifest, one-shot and streamed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-yaml-'));
    const [password, first, second, folded] = [secret(), secret(), secret(), secret()];
    const manifest = [
      'apiVersion: v1',
      'kind: Secret',
      'stringData:',
      '  password: |',
      `    ${password}`,
      '  api_token: >-',
      `    ${first}`,
      '',
      `    ${second}`,
      '  username: admin',
      '---',
      'items:',
      '  - client_secret: |+',
      `      ${folded}`,
      '    name: web',
      '',
    ].join('\n');
    try {
      const file = join(directory, 'secret.yaml');
      await writeFile(file, manifest);
      const content = await readFile(file, 'utf8');
      const scrubbed = scrubber.scrubText(content);
      for (const value of [password, first, second, folded]) expect(scrubbed).not.toContain(value);
      expect(scrubbed).toContain(
        // Every stringData value of a Secret is secret: the key names the kind where it can.
        '  password: |\n    [REDACTED:password]\n  api_token: >-\n    [REDACTED:token]\n  username: [REDACTED:secret]\n',
      );
      expect(scrubbed).toContain('  - client_secret: |+\n      [REDACTED:secret]\n    name: web\n');
      for (const cut of [3, 40, 700]) expect(streamAll(content, cut), `chunks of ${cut}`).toBe(scrubbed);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('leaves block scalars of other keys, placeholders and a key with nothing under it alone', () => {
    for (const text of [
      'description: |\n  The token is read from the environment.\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template reference is the sample
      'password: |\n  ${DB_PASSWORD}\nuser: app\n',
      'password: |\nuser: app\n',
      'run: |\n  echo "$TOKEN"\n',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
