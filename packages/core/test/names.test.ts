import { describe, expect, it } from 'vitest';
import {
  TOOL_NAME_PATTERN,
  allocateToolNames,
  qualifyToolName,
  sanitizeToolName,
  splitToolName,
} from '../src/names.js';

describe('sanitizeToolName', () => {
  it.each([
    ['search_code', 'search_code'],
    ['github.search code', 'github_search_code'],
    ['tool/with:odd*chars', 'tool_with_odd_chars'],
    ['ünïcødé', 'unic_de'],
  ])('%s -> %s', (input, expected) => {
    expect(sanitizeToolName(input)).toBe(expected);
  });

  it('names an empty or all-invalid input from its hash', () => {
    expect(sanitizeToolName('')).toMatch(/^tool_[0-9a-f]{8}$/);
    expect(sanitizeToolName('***')).toBe('___');
  });

  it('keeps every output valid and deterministic, even for long names', () => {
    const long = `a${'x'.repeat(200)}`;
    const a = sanitizeToolName(long);
    expect(a).toMatch(TOOL_NAME_PATTERN);
    expect(a).toHaveLength(64);
    expect(sanitizeToolName(long)).toBe(a);
    expect(sanitizeToolName(`${long}y`)).not.toBe(a);
  });
});

describe('qualifyToolName / splitToolName', () => {
  it('joins with a double underscore and splits at the first one', () => {
    expect(qualifyToolName('github', 'search_code')).toBe('github__search_code');
    expect(qualifyToolName(undefined, 'read')).toBe('read');
    expect(splitToolName('github__search__code')).toEqual({ namespace: 'github', tool: 'search__code' });
    expect(splitToolName('read')).toEqual({ tool: 'read' });
  });
});

describe('allocateToolNames', () => {
  it('suffixes collisions in order, deterministically', () => {
    const names = allocateToolNames(['a.b', 'a_b', 'a b', 'c']);
    expect(names).toEqual(['a_b', 'a_b_2', 'a_b_3', 'c']);
    expect(allocateToolNames(['a.b', 'a_b', 'a b', 'c'])).toEqual(names);
  });

  it('respects names already taken and stays within 64 characters', () => {
    const base = 'x'.repeat(64);
    const names = allocateToolNames([base, base], new Set([base]));
    expect(names.every((n) => n.length <= 64 && TOOL_NAME_PATTERN.test(n))).toBe(true);
    expect(new Set(names).size).toBe(2);
    expect(names).not.toContain(base);
  });

  it('skips suffixes already taken, however many names share a base', () => {
    const names = allocateToolNames(['a', 'a', 'b', 'a', 'a_3', 'a'], new Set(['a_2']));
    expect(names).toEqual(['a', 'a_3', 'b', 'a_4', 'a_3_2', 'a_5']);
    // 20,000 names cleaning up to one base: each keeps its place in the sequence.
    const many = allocateToolNames(Array.from({ length: 20_000 }, (_, i) => (i % 2 ? 'x y' : 'x.y')));
    expect(many[0]).toBe('x_y');
    expect(many[19_999]).toBe('x_y_20000');
    expect(new Set(many).size).toBe(20_000);
  });
});
