import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { createFakeSource } from '../../src/testing/fake.js';
import { DEFAULT_RULES } from '../../src/rules/index.js';

const fake = createFakeSource();
const everything = createScrubber();

describe.each(DEFAULT_RULES.map((rule) => [rule.id, rule] as const))('rule %s', (_id, rule) => {
  const alone = createScrubber({ rules: [rule] });

  it('redacts each of its true positives, and only the secret', () => {
    for (let round = 0; round < 5; round++) {
      const samples = rule.positives(fake);
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of samples) {
        expect(sample.text).toContain(sample.secret);
        const expected = sample.text.replace(sample.secret, `[REDACTED:${sample.kind ?? rule.id}]`);
        expect(alone.scrub(sample.text).text, sample.text).toBe(expected);
        expect(everything.scrub(sample.text).text, sample.text).toBe(expected);
      }
    }
  });

  it('leaves its placeholders and near misses alone', () => {
    const negatives = rule.negatives(fake);
    expect(negatives.length).toBeGreaterThan(0);
    for (const negative of negatives) {
      const outcome = everything.scrub(negative);
      expect(outcome.findings, negative).toEqual([]);
      expect(outcome.text).toBe(negative);
    }
  });
});

describe('rule set', () => {
  it('covers the documented credential families', () => {
    const ids = DEFAULT_RULES.map((rule) => rule.id);
    for (const id of [
      'openai_api_key',
      'anthropic_api_key',
      'github_token',
      'aws_access_key',
      'google_api_key',
      'private_key',
      'jwt',
      'slack_token',
      'stripe_key',
      'twilio_api_key',
      'sendgrid_api_key',
      'npm_token',
      'pypi_token',
      'huggingface_token',
      'gitlab_token',
      'azure_storage_key',
      'url_password',
      'assignment',
    ])
      expect(ids).toContain(id);
  });

  it('names the kind and leaves the surrounding text untouched', () => {
    const token = `ghp_${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 36)}`;
    const outcome = everything.scrub(`before ${token} after`);
    expect(outcome.text).toBe('before [REDACTED:github_token] after');
    expect(outcome.findings).toEqual([{ kind: 'github_token', ruleId: 'github_token', start: 7, end: 47 }]);
  });
});
