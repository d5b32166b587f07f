import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../src/rules/index.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

const fake = createFakeSource();

function streamAll(chunks: readonly string[], scrubber = createScrubber()): string {
  const stream = scrubber.createStreamScrubber();
  let out = '';
  for (const chunk of chunks) out += stream.write(chunk);
  return out + stream.flush();
}

function splitAt(text: string, cuts: readonly number[]): string[] {
  const chunks: string[] = [];
  let previous = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    chunks.push(text.slice(previous, cut));
    previous = cut;
  }
  chunks.push(text.slice(previous));
  return chunks;
}

describe('stream scrubber', () => {
  it('redacts a token split at every possible boundary', () => {
    const token = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
    const text = `log: pushing with ${token} now\n`;
    const expected = 'log: pushing with [REDACTED:github_token] now\n';
    for (let cut = 1; cut < text.length; cut++)
      expect(streamAll(splitAt(text, [cut])), `cut ${cut}`).toBe(expected);
  });

  it('redacts an exact secret and a password split into one-character chunks', () => {
    const secret = fake.chars(ALPHABETS.alnum, 24);
    const password = `${fake.chars(ALPHABETS.alnum, 12)}9`;
    const text = `env ${secret} and DB_PASSWORD=${password}\nnext line`;
    const out = streamAll([...text], createScrubber({ secrets: [secret] }));
    expect(out).toBe('env [REDACTED:secret] and DB_PASSWORD=[REDACTED:password]\nnext line');
  });

  it('gives the same output as one-shot scrubbing for every rule sample under random chunking', () => {
    const scrubber = createScrubber();
    const samples = DEFAULT_RULES.flatMap((rule) => rule.positives(fake).map((sample) => sample.text));
    const filler = 'The quick brown fox; const x = a + b; {"id": 12, "ok": true}\n';
    const text = samples.map((sample) => `${filler.repeat(3)}${sample}\n`).join('');
    const expected = scrubber.scrub(text).text;
    for (let round = 0; round < 20; round++) {
      const cuts = Array.from({ length: 5 + round * 10 }, () => Math.floor(Math.random() * text.length));
      expect(streamAll(splitAt(text, cuts), scrubber)).toBe(expected);
    }
  });

  it('holds a PEM block open across many chunks and emits it redacted', () => {
    const lines = Array.from({ length: 26 }, () => fake.chars(ALPHABETS.base64, 64));
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----`;
    const text = `$ cat key.pem\n${key}\n$ ls\n`;
    const chunks = splitAt(
      text,
      Array.from({ length: 40 }, (_, index) => 10 + index * 45),
    );
    expect(streamAll(chunks)).toBe('$ cat key.pem\n[REDACTED:private_key]\n$ ls\n');
  });

  it('emits early what cannot be part of a secret, keeps a bounded tail, and reports stream positions', () => {
    const scrubber = createScrubber();
    const stream = scrubber.createStreamScrubber();
    const token = `npm_${fake.chars(ALPHABETS.alnum, 36)}`;
    const head = 'x'.repeat(5000);
    const emitted = stream.write(`${head} ${token} `);
    expect(emitted.length).toBeGreaterThan(3000);
    const rest = stream.write('y'.repeat(5000)) + stream.flush();
    expect(emitted + rest).toBe(`${head} [REDACTED:npm_token] ${'y'.repeat(5000)}`);
    expect(stream.findings).toEqual([{ kind: 'npm_token', ruleId: 'npm_token', start: 5001, end: 5041 }]);
  });

  it('holds a long token (a 3 KB JWT) that is still being written, split into 100-character chunks', () => {
    const payload = fake.base64url(JSON.stringify({ sub: '1', claims: fake.chars(ALPHABETS.alnum, 2200) }));
    const token = `${fake.base64url('{"alg":"RS256","typ":"JWT"}')}.${payload}.${fake.chars(ALPHABETS.base64url, 342)}`;
    const text = `Authorization header was: ${token}\nnext`;
    const chunks = splitAt(
      text,
      Array.from({ length: Math.floor(text.length / 100) }, (_, index) => (index + 1) * 100),
    );
    expect(streamAll(chunks)).toBe('Authorization header was: [REDACTED:jwt]\nnext');
  });

  it('works as a WHATWG TransformStream', async () => {
    const token = `xoxb-${fake.chars(ALPHABETS.digits, 12)}-${fake.chars(ALPHABETS.digits, 13)}-${fake.chars(ALPHABETS.alnum, 24)}`;
    const text = `slack ${token} done`;
    const source = new ReadableStream<string>({
      start(controller) {
        for (const chunk of splitAt(text, [8, 15, 22])) controller.enqueue(chunk);
        controller.close();
      },
    });
    let out = '';
    const reader = source.pipeThrough(createScrubber().createStreamScrubber().readable()).getReader();
    for (let i = 0; i < 100; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      out += value;
    }
    expect(out).toBe('slack [REDACTED:slack_token] done');
  });
});
