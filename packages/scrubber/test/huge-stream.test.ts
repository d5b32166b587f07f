import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

// A stream holds a long token (a run without blanks or quotes, up to 16 KB) until it ends. Sizes
// are chosen so that rescanning the held token at every small chunk (about 500 scanned characters
// per character) would not finish within the test timeout; the test asserts only the result.

const fake = createFakeSource();

describe('huge streams in small chunks', () => {
  it('streams 8 MB of base64 without a blank in 16-character chunks, and redacts the token after it', () => {
    const scrubber = createScrubber();
    const token = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
    const run = fake.chars(ALPHABETS.base64, 8_000_000);
    const text = `data:image/png;base64,${run}\ntoken ${token} done\n`;
    const stream = scrubber.createStreamScrubber();
    const parts: string[] = [];
    for (let i = 0; i < text.length; i += 16) parts.push(stream.write(text.slice(i, i + 16)));
    parts.push(stream.flush());
    const out = parts.join('');
    expect(out.length).toBe(text.length - token.length + '[REDACTED:github_token]'.length);
    expect(out.startsWith(`data:image/png;base64,${run}\n`)).toBe(true);
    expect(out.endsWith('\ntoken [REDACTED:github_token] done\n')).toBe(true);
  });
});
