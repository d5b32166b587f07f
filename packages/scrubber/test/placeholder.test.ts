import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import { isPlaceholder } from '../src/placeholder.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

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

describe('isPlaceholder and placeholder words inside long values', () => {
  const scrubber = createScrubber();
  const letters = (length: number) => fake.chars(ALPHABETS.alnum, length);

  it('does not take a long random value with a placeholder word run into it for a placeholder', () => {
    // 1 MB of base64 holds "dummy" in some case about once in 30 values: taken for a placeholder,
    // such a Secret value would be left in the clear whole.
    for (const word of ['dUMMY', 'Example', 'SAMPLE', 'insert', 'Replace', 'redacted', 'changeme']) {
      const value = `${letters(512 * 1024)}${word}${letters(512 * 1024)}`;
      expect(isPlaceholder(value), word).toBe(false);
      const out = scrubber.scrub(`kind: Secret\ndata:\n  big: ${value}\n`).text;
      expect(out, word).toBe('kind: Secret\ndata:\n  big: [REDACTED:secret]\n');
    }
  });

  it('still takes long placeholders and short values holding a word for placeholders', () => {
    for (const value of [
      `please-replace-me-with-the-real-token-${'0123456789'.repeat(8)}`,
      `${'a1'.repeat(40)}_EXAMPLE`,
      `your-token-${letters(80)}`,
      `${letters(70)}...${letters(10)}`,
      'exampletoken123',
      'AKIAIOSFODNN7EXAMPLE',
      `${letters(20)}dummy${letters(20)}`,
    ])
      expect(isPlaceholder(value), value).toBe(true);
  });
});
