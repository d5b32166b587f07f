import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/scrubber.js';
import { base64Cores, secretVariants } from '../src/secret-variants.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';

const fake = createFakeSource();

describe('exact secret values', () => {
  it('redacts a registered value as-is, URL-encoded, form-encoded and JSON-escaped', () => {
    const secret = `${fake.chars(ALPHABETS.alnum, 12)} /+&"${fake.chars(ALPHABETS.alnum, 8)}`;
    const scrubber = createScrubber();
    expect(scrubber.addSecret(secret, { kind: 'mcp_env' })).toBe(true);
    const texts = [
      `value=${secret};`,
      `https://x/?q=${encodeURIComponent(secret)}&a=1`,
      `body: q=${encodeURIComponent(secret).replace(/%20/g, '+')}`,
      JSON.stringify({ echoed: secret }),
    ];
    for (const text of texts) {
      const outcome = scrubber.scrub(text);
      expect(
        outcome.findings.map((finding) => finding.kind),
        text,
      ).toEqual(['mcp_env']);
      expect(outcome.text).toContain('[REDACTED:mcp_env]');
      expect(outcome.text).not.toContain(secret.slice(0, 12));
    }
    expect(scrubber.scrub(texts[3] as string).text).toBe('{"echoed":"[REDACTED:mcp_env]"}');
  });

  it('finds the base64 and base64url forms at all three byte alignments inside longer base64', () => {
    for (let round = 0; round < 10; round++) {
      const secret = fake.chars(`${ALPHABETS.alnum}-_.~`, 20 + round);
      const scrubber = createScrubber({ secrets: [secret] });
      for (let lead = 0; lead < 6; lead++) {
        const payload = `${fake.chars(ALPHABETS.alnum, lead)}user:${secret}\n${fake.chars(ALPHABETS.alnum, 7)}`;
        for (const encoding of ['base64', 'base64url'] as const) {
          const encoded = Buffer.from(payload).toString(encoding);
          const outcome = scrubber.scrub(`data: ${encoded}`);
          expect(outcome.findings.length, `${encoding} lead ${lead}`).toBe(1);
          // What is left around the marker never decodes back to the secret.
          expect(
            Buffer.from(outcome.text.replace(/\[REDACTED:secret\]/, ''), encoding).toString(),
          ).not.toContain(secret);
        }
      }
    }
  });

  it('computes base64 cores that only depend on the secret', () => {
    const secret = 'correct-horse-battery-staple';
    const cores = base64Cores(secret);
    expect(cores).toHaveLength(3);
    for (let lead = 0; lead < 3; lead++) {
      for (const extra of [0, 3, 6]) {
        const encoded = Buffer.from(`${'x'.repeat(lead + extra)}${secret}XYZ`).toString('base64');
        expect(encoded).toContain(cores[lead]);
      }
    }
    expect(secretVariants('short', 8)).toEqual([]);
  });

  it('ignores values too short to redact safely and rejects bad input with stable codes', () => {
    const scrubber = createScrubber({ minSecretLength: 8 });
    expect(scrubber.addSecret('1234567')).toBe(false);
    expect(scrubber.scrub('port 1234567').findings).toEqual([]);
    expect(() => scrubber.addSecret(42 as unknown as string)).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENTS' }),
    );
    try {
      scrubber.addSecret('abcdefghijkl', { kind: 'Bad Kind' });
      expect.unreachable();
    } catch (error) {
      expect(ToolError.isInstance(error) && error.code).toBe('INVALID_ARGUMENTS');
    }
  });

  it('finds many secrets and overlapping occurrences in one pass', () => {
    const secrets = Array.from({ length: 50 }, (_, index) => fake.chars(ALPHABETS.alnum, 16 + (index % 4)));
    const scrubber = createScrubber({ secrets });
    const text = secrets.map((secret, index) => `${index}:${secret}${secret}`).join(' ');
    const outcome = scrubber.scrub(text);
    for (const secret of secrets) expect(outcome.text).not.toContain(secret);
    expect(outcome.text.match(/\[REDACTED:secret\]/g)?.length).toBe(100);
  });

  it('stays linear on inputs made of a secret-like character run', () => {
    const scrubber = createScrubber({ secrets: ['aaaaaaaaaaaaaaab', 'aaaaaaaaaaaaaaaa'] });
    const outcome = scrubber.scrub('a'.repeat(200_000));
    expect(outcome.text).toBe('[REDACTED:secret]');
  });
});
