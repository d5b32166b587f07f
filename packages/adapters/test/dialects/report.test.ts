import { describe, expect, it } from 'vitest';
import { DIALECTS, exportTools, formatCompatReport } from '../../src/index.js';
import { FILE_TOOL } from './fixtures.js';

const PLAIN = {
  name: 'math__add',
  description: 'Adds.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
};

describe('compatibility report and export', () => {
  it('exports definitions in every dialect with a report entry per tool', () => {
    for (const dialect of DIALECTS) {
      const exported = exportTools([PLAIN, FILE_TOOL], dialect);
      expect(exported.definitions).toHaveLength(2);
      expect(exported.report.entries.map((e) => e.tool)).toEqual(['math__add', 'fs__write']);
      expect(exported.report.entries[0]?.status).toBe('exact');
    }
  });

  it('prints one line per tool and one per change', () => {
    const text = formatCompatReport(exportTools([PLAIN, FILE_TOOL], 'gemini').report);
    const lines = text.split('\n');
    expect(lines[0]).toBe('gemini: 2 tools; exact 1, lossless 0, relaxed 0, degraded 1, unrepresentable 0');
    expect(lines).toContain('math__add: exact');
    expect(lines).toContain('fs__write: degraded');
    expect(lines.some((l) => /^ {2}degraded +\/properties\/env an object with free-form keys/.test(l))).toBe(
      true,
    );
  });

  it('reports a schema that accepts nothing as unrepresentable', () => {
    const never = {
      name: 'never',
      description: '',
      inputSchema: { type: 'object', properties: { x: false } },
    };
    expect(exportTools([never], 'openai-strict').report.entries[0]?.status).toBe('unrepresentable');
  });

  it('refuses an unknown format with INVALID_ARGUMENTS naming the formats', () => {
    expect(() => exportTools([], 'cohere')).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENTS',
        message: expect.stringContaining('openai-strict'),
      }),
    );
  });
});
