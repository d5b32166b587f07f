import { ToolError } from '@toolplane/core';

/** A search pattern checked to mean the same to ripgrep and to JavaScript. */
export interface SearchPattern {
  readonly source: string;
  readonly ignoreCase: boolean;
  /** Finds candidates in a whole file (global, multiline anchors). */
  readonly scanner: RegExp;
  /** Confirms a match within one line. */
  readonly line: RegExp;
  /** The pattern itself when it is a plain case-sensitive literal (lets engines skip files fast). */
  readonly literal?: string;
}

/** Longest pattern accepted (a command-line argument of ripgrep must stay well under 128 KiB). */
export const MAX_PATTERN_LENGTH = 10_000;

const UNSUPPORTED: ReadonlyArray<readonly [RegExp, string]> = [
  [/\(\?<?[=!]/, 'lookaround ((?=, (?!, (?<=, (?<!)'],
  [/\\[1-9]|\\k</, 'backreferences (\\1, \\k<name>)'],
];

/**
 * Compiles a grep pattern. Features ripgrep's engine lacks (lookaround, backreferences) are
 * refused, so both engines accept the same patterns; a leading `(?i)` is honoured.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): SearchPattern {
  let source = pattern;
  let caseless = ignoreCase;
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    caseless = true;
  }
  if (source.length === 0)
    throw new ToolError('INVALID_ARGUMENTS', 'pattern is empty; pass a regular expression');
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `pattern is ${source.length} characters long, over the ${MAX_PATTERN_LENGTH} limit; search for a shorter distinctive part`,
    );
  }
  if (source.includes('\0')) {
    throw new ToolError('INVALID_ARGUMENTS', 'pattern contains a null byte; write it as \\x00 to match one');
  }
  if (source.includes('\n')) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      'pattern contains a line break, and grep matches within one line; search for one line of the text',
    );
  }
  for (const [test, what] of UNSUPPORTED) {
    if (test.test(source)) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `pattern uses ${what}, which grep does not support; rewrite it without them`,
      );
    }
  }
  const unicode = /\\[pP]\{/.test(source);
  const flags = `${caseless ? 'i' : ''}${unicode ? 'u' : ''}`;
  try {
    const literal = !caseless && !/[\\^$.|?*+()[\]{}]/.test(source) ? source : undefined;
    return {
      source,
      ignoreCase: caseless,
      scanner: new RegExp(source, `gm${flags}`),
      line: new RegExp(source, flags),
      ...(literal === undefined ? {} : { literal }),
    };
  } catch (error) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `pattern is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}
