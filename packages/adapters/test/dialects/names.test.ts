import { describe, expect, it } from 'vitest';
import { NAME_RULES, allocateDialectNames, compileTools, dialectName } from '../../src/index.js';

describe('tool names per dialect', () => {
  it('keeps a name the dialect accepts', () => {
    expect(dialectName('github__create_issue', 'gemini')).toBe('github__create_issue');
    expect(dialectName('a.b', 'mcp')).toBe('a.b');
  });

  it('maps a refused name to a valid one and back', () => {
    const long = `ns__${'x'.repeat(100)}`;
    const compiled = compileTools(
      [
        { name: 'a.b', description: '', inputSchema: { type: 'object' } },
        { name: long, description: '', inputSchema: { type: 'object' } },
      ],
      'openai',
    );
    const [dotted, cut] = compiled.tools;
    expect(dotted?.name).toMatch(NAME_RULES.openai.valid);
    expect(cut?.name).toHaveLength(64);
    expect(compiled.restoreCall(dotted?.name as string, {}).name).toBe('a.b');
    expect(compiled.restoreCall(cut?.name as string, {}).name).toBe(long);
    expect(dotted?.compat.issues[0]).toMatchObject({ path: 'name', severity: 'lossless' });
  });

  it('gives names that clash after mapping distinct suffixes', () => {
    expect(new Set(allocateDialectNames(['a', 'a', 'a'], 'anthropic')).size).toBe(3);
  });

  it('answers TOOL_NOT_FOUND for a name it never gave', () => {
    const compiled = compileTools([], 'openai');
    expect(() => compiled.restoreCall('ghost', {})).toThrow(
      expect.objectContaining({ code: 'TOOL_NOT_FOUND' }),
    );
  });
});
