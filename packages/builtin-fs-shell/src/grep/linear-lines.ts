import { ToolError } from '@toolplane/core';
import { RE2JS } from 're2js';
import type { SearchPattern } from './pattern.js';

/** Finds the lines (1-based numbers) of a text that hold a match. */
export type LineFinder = (text: string, firstOnly: boolean) => number[];

const HEX = /^[0-9a-fA-F]{4}$/;

/**
 * Rewrites the escapes JavaScript and ripgrep accept but RE2 spells otherwise: `\uXXXX` and
 * `\u{X...}` become `\x{...}`, `\cX` the control character's code. Everything else is RE2
 * syntax already (ripgrep's engine belongs to the same family).
 */
export function toRe2Syntax(source: string): string {
  let out = '';
  for (let at = 0; at < source.length; at++) {
    const char = source[at] as string;
    if (char !== '\\' || at + 1 >= source.length) {
      out += char;
      continue;
    }
    const next = source[at + 1] as string;
    if (next === 'u' && source[at + 2] === '{') {
      const close = source.indexOf('}', at + 3);
      if (close !== -1) {
        out += `\\x{${source.slice(at + 3, close)}}`;
        at = close;
        continue;
      }
    } else if (next === 'u' && HEX.test(source.slice(at + 2, at + 6))) {
      out += `\\x{${source.slice(at + 2, at + 6)}}`;
      at += 5;
      continue;
    } else if (next === 'c' && /^[a-zA-Z]$/.test(source[at + 2] ?? '')) {
      const code = (source.charCodeAt(at + 2) & 31).toString(16).padStart(2, '0');
      out += `\\x${code}`;
      at += 2;
      continue;
    }
    out += char + next;
    at++;
  }
  return out;
}

/**
 * A linear-time way to find matching lines (RE2, ported to JavaScript): slower than V8's
 * engine on ordinary patterns, but no pattern makes it backtrack. Matching then follows RE2's
 * rules, which are ripgrep's family: `.` also matches `\r`, `\s` is ASCII white space, `\A`
 * and `\z` anchor a line. Throws INVALID_ARGUMENTS when RE2 cannot read the pattern.
 */
export function linearLineFinder(pattern: SearchPattern): LineFinder {
  const source = toRe2Syntax(pattern.source);
  const flags = pattern.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  let line: RE2JS;
  let whole: RE2JS | undefined;
  try {
    line = RE2JS.compile(source, flags);
    // Whole-text anchors (\A, \z) mean a line's ends here; a multiline test of a whole chunk
    // would miss those, so only patterns without them get the quick test of the whole text.
    if (!/\\[Az]/.test(source)) whole = RE2JS.compile(source, flags | RE2JS.MULTILINE);
  } catch (error) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `pattern /${pattern.source}/ backtracks too long for the Node engine, and the linear-time engine it falls back to cannot read it (${(error as Error).message}); rewrite it without nested repetition such as (a+)+, or install ripgrep (rg) on the host`,
    );
  }
  return (text, firstOnly) => {
    const found: number[] = [];
    if (whole !== undefined && !whole.test(text)) return found;
    let number = 1;
    for (let start = 0; start < text.length; number++) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      if (line.test(text.slice(start, end))) {
        found.push(number);
        if (firstOnly) break;
      }
      if (newline === -1) break;
      start = newline + 1;
    }
    return found;
  };
}
