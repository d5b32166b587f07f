import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// The signature of an S3 (SigV4 or SigV2) or Cloud Storage presigned URL lets whoever holds the
// URL read the object until it expires: it is redacted like a token; the rest of the URL stays.
// CloudFront signed URLs and the `Signature=` of a SigV4 Authorization header are bearer
// capabilities in the same way.

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

/**
 * A URL presigned with AWS signature version 2 (query string authentication), signed here the
 * way S3's SigV2 signer does: HMAC-SHA1 of "GET\n\n\n<expires>\n/<bucket>/<key>" under the
 * secret key, in base64, URL-encoded. (botocore's signer gives the same URL; CI has no botocore,
 * and the signature is these few lines.)
 */
function presignV2(): string {
  const accessKeyId = `AKIA${fake.chars(ALPHABETS.upperDigits, 16)}`;
  const secretKey = fake.chars(ALPHABETS.alnum, 40);
  const expires = Math.floor(Date.now() / 1000) + 600;
  const signature = createHmac('sha1', secretKey)
    .update(`GET\n\n\n${expires}\n/example-bucket/report.csv`)
    .digest('base64');
  return `https://example-bucket.s3.amazonaws.com/report.csv?AWSAccessKeyId=${accessKeyId}&Signature=${encodeURIComponent(signature)}&Expires=${expires}`;
}

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

describe('SigV2 presigned URLs and signed requests', () => {
  it('redacts the signature of a URL presigned with the SigV2 signer', () => {
    const url = presignV2();
    const signature = /[?&]Signature=([^&\s]+)/.exec(url)?.[1];
    expect(signature).toBeDefined();
    expect(url).toContain('AWSAccessKeyId=');
    const scrubbed = scrubber.scrubText(`Download: ${url}\n`);
    expect(scrubbed).not.toContain(signature as string);
    expect(scrubbed).toContain('Signature=[REDACTED:token]');
    expect(scrubbed).toMatch(/Expires=\d+/);
    // The signature first, and the key id after it; also inside a JSON string.
    const reordered = `https://b.s3.amazonaws.com/k?Signature=${signature}&Expires=1795373862&AWSAccessKeyId=AKIA${fake.chars(ALPHABETS.upperDigits, 16)}`;
    expect(scrubber.scrubText(JSON.stringify({ url: reordered }))).not.toContain(signature as string);
  });

  it('redacts CloudFront and SigV4 header signatures, and leaves other Signature keys alone', () => {
    const cloudfront = fake.chars(`${ALPHABETS.alnum}-_~`, 172);
    const hex = fake.chars('0123456789abcdef', 64);
    expect(
      scrubber.scrubText(
        `https://d111111abcdef8.cloudfront.net/image.jpg?Expires=1795373862&Signature=${cloudfront}&Key-Pair-Id=K2JCJMDEHXQW5F`,
      ),
    ).toBe(
      'https://d111111abcdef8.cloudfront.net/image.jpg?Expires=1795373862&Signature=[REDACTED:token]&Key-Pair-Id=K2JCJMDEHXQW5F',
    );
    const header = `Authorization: AWS4-HMAC-SHA256 Credential=AKIA${fake.chars(ALPHABETS.upperDigits, 16)}/20261122/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${hex}`;
    const scrubbed = scrubber.scrubText(`> ${header}\r\n> Host: b.s3.amazonaws.com\r\n`);
    expect(scrubbed).not.toContain(hex);
    expect(scrubbed).toContain('SignedHeaders=host;x-amz-date, Signature=[REDACTED:token]\r\n');
    for (const text of [
      `https://api.example.com/webhook?Signature=${hex}&id=42`,
      `Signature=${hex}`,
      'SignatureVersion=2&SignatureMethod=HmacSHA256',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });
});
