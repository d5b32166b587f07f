import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../src/rules/index.js';
import { createScrubber } from '../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../src/testing/fake.js';
import type { SecretRule } from '../src/types.js';

const fake = createFakeSource();
const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return ToolError.isInstance(error) ? error.code : `not a ToolError: ${String(error)}`;
  }
  return undefined;
}

function errorOf(fn: () => unknown): { code: string; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    if (ToolError.isInstance(error)) return { code: error.code, message: error.message };
    return { code: `not a ToolError: ${String(error)}`, message: '' };
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

  it('refuses a non-array to scrubPieces', () => {
    const scrubber = createScrubber();
    expect(errorOf(() => scrubber.scrubPieces('text' as unknown as string[]))?.code).toBe(
      'INVALID_ARGUMENTS',
    );
    expect(scrubber.scrubPieces([])).toEqual({ pieces: [], findings: [] });
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

describe('malformed options (plain-JS callers)', () => {
  it('refuses a single string as `secrets` instead of holding its characters (nothing redacted)', () => {
    const held = fake.chars(ALPHABETS.alnum, 30);
    const error = errorOf(() => createScrubber({ secrets: held as unknown as string[] }));
    expect(error?.code).toBe('CONFIG_INVALID');
    expect(error?.message).toContain('[value]');
    expect(error?.message).not.toContain(held);
    expect(errorOf(() => createScrubber({ secrets: 42 as unknown as string[] }))?.code).toBe(
      'CONFIG_INVALID',
    );
    // A Set and a generator are fine.
    const fromSet = createScrubber({ secrets: new Set([held]) });
    expect(fromSet.scrubText(`v ${held}`)).toBe('v [REDACTED:secret]');
  });

  it('refuses a disabledRules id no rule has (a typo would silently keep the rule on)', () => {
    const error = errorOf(() => createScrubber({ disabledRules: ['assignments'] }));
    expect(error?.code).toBe('CONFIG_INVALID');
    expect(error?.message).toContain('"assignments"');
    expect(error?.message).toContain('assignment');
    expect(errorOf(() => createScrubber({ disabledRules: 'assignment' as unknown as string[] }))?.code).toBe(
      'CONFIG_INVALID',
    );
  });

  it('refuses rules, marker and options of the wrong type at creation, not at the first scrub', () => {
    expect(errorOf(() => createScrubber({ rules: 'all' as unknown as SecretRule[] }))?.code).toBe(
      'CONFIG_INVALID',
    );
    expect(errorOf(() => createScrubber({ rules: [null as unknown as SecretRule] }))?.code).toBe(
      'CONFIG_INVALID',
    );
    expect(errorOf(() => createScrubber({ marker: '***' as unknown as () => string }))?.code).toBe(
      'CONFIG_INVALID',
    );
    expect(errorOf(() => createScrubber(null as unknown as object))?.code).toBe('CONFIG_INVALID');
  });

  it('refuses a rule without a usable maxLength (the stream hold-back would be NaN)', () => {
    const rule = {
      id: 'custom',
      description: 'custom',
      anchors: ['cst_'],
      pattern: /cst_[a-z]{10}/,
      positives: () => [],
      negatives: () => [],
    } as unknown as SecretRule;
    for (const maxLength of [undefined, Number.NaN, -1, 0, 2.5]) {
      const error = errorOf(() =>
        createScrubber({ rules: [...DEFAULT_RULES, { ...rule, maxLength } as SecretRule] }),
      );
      expect(error?.code).toBe('CONFIG_INVALID');
      expect(error?.message).toContain('maxLength');
    }
  });

  it('refuses non-string stream chunks and scrubExact input instead of printing "undefined"', () => {
    const scrubber = createScrubber();
    const stream = scrubber.createStreamScrubber();
    expect(stream.write('before ')).toBe('');
    expect(errorOf(() => stream.write(undefined as unknown as string))?.code).toBe('INVALID_ARGUMENTS');
    expect(errorOf(() => stream.write(Buffer.from('x') as unknown as string))?.code).toBe(
      'INVALID_ARGUMENTS',
    );
    // The refused chunk left the stream as it was.
    expect(stream.write(`${githubToken} after`) + stream.flush()).toBe(
      'before [REDACTED:github_token] after',
    );
    expect(errorOf(() => scrubber.scrubExact(5 as unknown as string))?.code).toBe('INVALID_ARGUMENTS');
  });

  it('accepts null options on addSecret as the defaults', () => {
    const scrubber = createScrubber();
    const held = fake.chars(ALPHABETS.alnum, 20);
    expect(scrubber.addSecret(held, null as unknown as undefined)).toBe(true);
    expect(scrubber.scrubText(held)).toBe('[REDACTED:secret]');
  });
});
