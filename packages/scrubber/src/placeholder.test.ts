import { describe, expect, it } from 'vitest';
import { createScrubber } from './scrubber.js';
import { isPlaceholder } from './placeholder.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';

const fake = createFakeSource();

describe('isPlaceholder and runs of x', () => {
  it('takes the x runs of placeholders for placeholders', () => {
    for (const value of [
      'sk-xxxx',
      'XXXX-XXXX',
      'AKIAXXXXXXXXXXXXXXXX',
      `ghp_${'x'.repeat(36)}`,
      'tok_xxxxxxxx1234567890abcdef',
    ])
      expect(isPlaceholder(value), value).toBe(true);
  });

  it('does not take a random key with XxXx or xxxx in it for one, and redacts it', () => {
    const scrubber = createScrubber();
    for (const inside of ['XxXx', 'xXxX', 'xxxx', 'XXXX', 'xxxXXXXx']) {
      // An 88-character base64 account key, as Azure issues, with the run somewhere in it.
      const random = fake.chars(ALPHABETS.base64, 82);
      const key = `${`${random.slice(0, 30)}${inside}${random.slice(30)}`.slice(0, 86)}==`;
      expect(isPlaceholder(key), key).toBe(false);
      const text = `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${key};EndpointSuffix=core.windows.net`;
      expect(scrubber.scrub(text).text).toBe(text.replace(key, '[REDACTED:azure_storage_key]'));
    }
  });
});
