import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RegisteredTool, createToolContext, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createScrubber, scrubberMiddleware } from '../src/index.js';
import { ALPHABETS, createFakeSource } from '../src/testing/index.js';

// What the README promises about ordinary output: hashes, ids, lockfiles, env dumps without
// credentials and base64 images come through unchanged.

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const scrubber = createScrubber();

function unchanged(text: string): void {
  const { text: out, findings } = scrubber.scrub(text);
  const context = findings
    .slice(0, 3)
    .map((finding) => `${finding.kind}: ${JSON.stringify(text.slice(finding.start - 40, finding.end + 5))}`);
  expect(context).toEqual([]);
  expect(out).toBe(text);
}

describe('ordinary output is left alone', () => {
  it('git log, git ls-tree and the lockfile of this repository', async () => {
    if (!existsSync(`${repository}/.git`)) {
      if (process.env.CI === 'true') throw new Error(`${repository} is not a git checkout`);
      console.warn('skipped: not a git checkout');
      return;
    }
    const log = await run('git', [
      '-C',
      repository,
      'log',
      '--format=commit %H%nparent %P%ntree %T%n%n    %s%n',
      '-n',
      '500',
    ]);
    const tree = await run('git', ['-C', repository, 'ls-tree', '-r', 'HEAD'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(log.stdout).toMatch(/^commit [0-9a-f]{40}$/m);
    unchanged(log.stdout);
    unchanged(tree.stdout);
    unchanged(readFileSync(`${repository}/pnpm-lock.yaml`, 'utf8'));
  });

  it('UUIDs, SHA digests, ETags, npm and yarn integrity hashes', () => {
    const lines = Array.from({ length: 2000 }, (_, index) =>
      [
        `request_id=${randomUUID()} session: ${randomUUID()} "id": "${randomUUID()}"`,
        `image@sha256:${randomBytes(32).toString('hex')} ETag: "${randomBytes(16).toString('hex')}"`,
        `"integrity": "sha512-${randomBytes(64).toString('base64')}", "resolved": "https://registry.npmjs.org/p${index}/-/p${index}-1.0.0.tgz"`,
        `  resolved "https://registry.yarnpkg.com/p${index}/-/p${index}-1.0.0.tgz#${randomBytes(20).toString('hex')}"`,
      ].join('\n'),
    );
    unchanged(lines.join('\n'));
  });

  it('an env dump: PWD and credential file paths stay, the credential goes', async () => {
    const token = createFakeSource().chars(ALPHABETS.alnum, 32);
    const { stdout } = await run(
      process.execPath,
      ['-e', 'for (const [k, v] of Object.entries(process.env)) console.log(k + "=" + v)'],
      {
        cwd: repository,
        env: {
          PATH: process.env.PATH ?? '',
          PWD: repository,
          GOOGLE_APPLICATION_CREDENTIALS: '/home/dev/.config/gcloud/application_default_credentials.json',
          API_TOKEN: token,
        },
      },
    );
    const { text, findings } = scrubber.scrub(stdout);
    expect(findings.map((finding) => finding.kind)).toEqual(['token']);
    expect(text).toContain(`PWD=${repository}\n`);
    expect(text).toContain(
      'GOOGLE_APPLICATION_CREDENTIALS=/home/dev/.config/gcloud/application_default_credentials.json\n',
    );
    expect(text).toContain('API_TOKEN=[REDACTED:token]\n');
  });

  it('a 3 MB base64 image, as a data URI in text and as an image block, and structured hashes', async () => {
    const image = randomBytes(2_000_000).toString('base64');
    unchanged(`![chart](data:image/png;base64,${image})`);
    unchanged(image.replace(/(.{76})/g, '$1\n'));
    const structured = {
      files: [{ path: 'a.txt', sha1: randomBytes(20).toString('hex'), id: randomUUID() }],
    };
    const tool: RegisteredTool = {
      name: 'test__image',
      localName: 'image',
      spec: { name: 'image', description: 'image', inputSchema: { type: 'object' } },
      provider: { namespace: 'test', kind: 'local' },
    };
    const middleware = scrubberMiddleware(
      createScrubber({ secrets: [createFakeSource().chars(ALPHABETS.alnum, 20)] }),
    );
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    const result = await handle({ tool, args: {}, ctx: createToolContext() }, async () =>
      ok([{ type: 'image', data: image, mimeType: 'image/png' }], structured),
    );
    expect(result.ok && result.content[0]).toEqual({ type: 'image', data: image, mimeType: 'image/png' });
    expect(result.ok && result.structured).toBe(structured);
  });
});
