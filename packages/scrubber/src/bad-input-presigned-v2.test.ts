import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createScrubber } from './scrubber.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';

// AWS signature version 2 presigned URLs (`?AWSAccessKeyId=...&Signature=...&Expires=...`),
// CloudFront signed URLs and the `Signature=` of a SigV4 Authorization header: the signature is
// a bearer capability until it expires. (SigV4 URLs' `X-Amz-Signature` is in
// bad-input-presigned-urls.test.ts.)

const run = promisify(execFile);
const fake = createFakeSource();
const scrubber = createScrubber();

/** A URL botocore's `s3` (SigV2 query) signer presigns, or undefined when botocore is missing (fails under CI). */
async function presignV2(): Promise<string | undefined> {
  const program = [
    'import sys, botocore.session',
    'from botocore.config import Config',
    "client = botocore.session.get_session().create_client('s3', region_name='us-east-1', aws_access_key_id=sys.argv[1], aws_secret_access_key=sys.argv[2], config=Config(signature_version='s3'))",
    "print(client.generate_presigned_url('get_object', Params={'Bucket': 'example-bucket', 'Key': 'report.csv'}, ExpiresIn=600))",
  ].join('\n');
  try {
    const { stdout } = await run('python3', [
      '-c',
      program,
      `AKIA${fake.chars(ALPHABETS.upperDigits, 16)}`,
      fake.chars(ALPHABETS.alnum, 40),
    ]);
    return stdout.trim();
  } catch (error) {
    if (process.env.CI !== 'true') {
      console.warn(`python3 with botocore is not available: skipped (${String(error).split('\n')[0]})`);
      return undefined;
    }
    throw error;
  }
}

describe('SigV2 presigned URLs and signed requests', () => {
  it('redacts the signature of a URL real botocore presigned with the SigV2 signer', async () => {
    const url = await presignV2();
    if (url === undefined) return;
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
