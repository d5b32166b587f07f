import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from './scrubber.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';

// The signature of an S3 (SigV4) or Cloud Storage presigned URL lets whoever holds the URL read
// the object until it expires: it is redacted like a token; the rest of the URL stays.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

describe('presigned URLs', () => {
  it('redacts the signature of a URL a real `aws s3 presign` made', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-presign-'));
    try {
      const config = join(directory, 'config');
      await writeFile(config, '[default]\nregion = eu-central-1\ns3 =\n    signature_version = s3v4\n');
      let url: string;
      try {
        const { stdout } = await run(
          'aws',
          ['s3', 'presign', 's3://example-bucket/report.csv', '--expires-in', '600'],
          {
            env: {
              ...process.env,
              AWS_CONFIG_FILE: config,
              AWS_SHARED_CREDENTIALS_FILE: join(directory, 'none'),
              AWS_ACCESS_KEY_ID: `AKIA${fake.chars(ALPHABETS.upperDigits, 16)}`,
              AWS_SECRET_ACCESS_KEY: fake.chars(ALPHABETS.alnum, 40),
            },
          },
        );
        url = stdout.trim();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && process.env.CI !== 'true') {
          console.warn('the aws CLI is not installed: skipped');
          return;
        }
        throw error;
      }
      const signature = /X-Amz-Signature=([0-9a-f]{64})/.exec(url)?.[1];
      expect(signature).toBeDefined();
      const scrubbed = scrubber.scrubText(`Download: ${url}\n`);
      expect(scrubbed).not.toContain(signature as string);
      expect(scrubbed).toMatch(/X-Amz-SignedHeaders=host&X-Amz-Signature=\[REDACTED:token\]\n$/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    // The aws CLI (Python) takes about 3 s to start on a quiet machine: a loaded one needs more.
  }, 60_000);

  it('redacts a Cloud Storage signature and leaves other signatures alone', () => {
    const signature = fake.chars('0123456789abcdef', 512);
    expect(
      scrubber.scrubText(
        `https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=${signature}`,
      ),
    ).toBe(
      'https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=[REDACTED:token]',
    );
    for (const text of [
      `"signature": "${signature.slice(0, 64)}"`,
      'X-Amz-SignedHeaders=host',
      'signature_version = s3v4',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
