import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from './rules/index.js';
import { createScrubber } from './scrubber.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';
import type { SecretRule } from './types.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return ToolError.isInstance(error) ? error.code : `not a ToolError: ${String(error)}`;
  }
  return undefined;
}

const base: SecretRule = {
  id: 'custom',
  description: 'custom',
  anchors: ['cst_'],
  pattern: /cst_[a-z]{10}/,
  maxLength: 14,
  positives: () => [],
  negatives: () => [],
};

describe('bad input', () => {
  it('rejects non-string text with INVALID_ARGUMENTS', () => {
    const scrubber = createScrubber();
    expect(codeOf(() => scrubber.scrub(undefined as unknown as string))).toBe('INVALID_ARGUMENTS');
    expect(codeOf(() => scrubber.scrub({} as unknown as string))).toBe('INVALID_ARGUMENTS');
  });

  it('rejects bad configuration with CONFIG_INVALID and a message that says what to fix', () => {
    expect(codeOf(() => createScrubber({ rules: [base, base] }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => createScrubber({ rules: [{ ...base, id: 'Bad Id' }] }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => createScrubber({ rules: [{ ...base, anchors: [] }] }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => createScrubber({ rules: [{ ...base, anchors: [''] }] }))).toBe('CONFIG_INVALID');
    const { pattern: _pattern, ...withoutPattern } = base;
    expect(codeOf(() => createScrubber({ rules: [withoutPattern] }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => createScrubber({ minSecretLength: 1 }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => createScrubber({ minSecretLength: 2.5 }))).toBe('CONFIG_INVALID');
  });

  it('accepts custom rules, disabled rules, a custom marker, and empty text', () => {
    const scrubber = createScrubber({
      rules: [...DEFAULT_RULES, base],
      disabledRules: ['assignment'],
      marker: (kind) => `<${kind}>`,
    });
    expect(scrubber.scrub('id cst_abcdefghij end').text).toBe('id <custom> end');
    expect(scrubber.scrub('password=hunter22x').findings).toEqual([]);
    expect(scrubber.scrub('')).toEqual({ text: '', findings: [] });
    expect(scrubber.rules.map((rule) => rule.id)).not.toContain('assignment');
  });

  it('handles text with astral characters and lone surrogates', () => {
    const scrubber = createScrubber();
    const token = `ghp_${createFakeSource().chars(ALPHABETS.alnum, 36)}`;
    expect(scrubber.scrub(`😀${token}\ud800 ✓`).text).toBe('😀[REDACTED:github_token]\ud800 ✓');
  });
});
