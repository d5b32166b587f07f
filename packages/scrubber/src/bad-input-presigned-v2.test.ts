import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createScrubber } from './scrubber.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';

// AWS signature version 2 presigned URLs (`?AWSAccessKeyId=...&Signature=...&Expires=...`),
// CloudFront signed URLs and the `Signature=` of a SigV4 Authorization header: the signature is
// a bearer capability until it expires. (SigV4 URLs' `X-Amz-Signature` is in
// bad-input-presigned-urls.test.ts.)

const fake = createFakeSource();
const scrubber = createScrubber();

/**
 * A URL presigned with AWS signature version 2 (query string authentication), signed here the
 * way S3's SigV2 signer does: HMAC-SHA1 of "GET\n\n\n<expires>\n/<bucket>/<key>" under the
 * secret key, in base64, URL-encoded. (It was made with botocore through python3; CI has no
 * botocore, and the signature is the same few lines.)
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
