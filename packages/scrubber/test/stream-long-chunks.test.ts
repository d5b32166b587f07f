import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../src/rules/index.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

const fake = createFakeSource();

/** Every rule's samples, with two-byte characters between them, repeated past `length` characters. */
function mixedText(length: number, secret: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let round = 0; size < length; round++) {
    const rule = DEFAULT_RULES[round % DEFAULT_RULES.length]!;
    const samples = rule.positives(fake);
    const sample = samples[round % samples.length]!;
    const filler = `${'const value = compute(→ step ✓);\n'.repeat(1 + (round % 40))}`;
    const part = `${filler}${sample.text}\n${round % 7 === 0 ? `echo ${secret}\n` : ''}`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

function streamed(text: string, chunkSize: number, secret: string): string {
  const stream = createScrubber({ secrets: [secret] }).createStreamScrubber();
  let out = '';
  for (let at = 0; at < text.length; at += chunkSize) out += stream.write(text.slice(at, at + chunkSize));
  return out + stream.flush();
}

describe('stream scrubber with long chunks', () => {
  it('gives the one-shot output for chunks of 64 KB and 200 KB of two-byte text with every rule sample', () => {
    const secret = fake.chars(ALPHABETS.alnum, 32);
    const text = mixedText(600_000, secret);
    const expected = createScrubber({ secrets: [secret] }).scrub(text).text;
    expect(expected).not.toBe(text);
    expect(streamed(text, 65_536, secret)).toBe(expected);
    expect(streamed(text, 200_000, secret)).toBe(expected);
  });

  it('redacts a token that a long chunk holds across the place it is read in pieces', () => {
    const token = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
    for (const at of [29_990, 30_000, 59_995]) {
      const text = `${'x→ '.repeat(at / 3 + 1).slice(0, at - 10)}token ${token} done\n${'tail\n'.repeat(3000)}`;
      const stream = createScrubber().createStreamScrubber();
      const out = stream.write(text) + stream.flush();
      expect(out, `token near ${at}`).toContain('token [REDACTED:github_token] done');
      expect(out).not.toContain(token);
    }
  });
});
