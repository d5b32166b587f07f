import { ToolError } from '@toolplane/core';

// Characters that make a path look like something it is not: bidirectional controls, zero-width
// characters, the line and paragraph separators, and the byte-order mark.
const INVISIBLE = /[\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
// Control characters (C0 with the null byte, DEL, C1 with NEL) never belong in a path a model writes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// With the u flag a class of surrogates matches only unpaired ones.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const SEPARATOR_LOOKALIKES = /[./\\]/u;
// Look-alikes of "/" and "\\" that NFKC leaves alone (division slash, fraction slash, big
// solidus, set minus, reverse solidus operator...).
const CONFUSABLE_SEPARATORS = /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\u2027]/u;

/**
 * Refuses path text that hides what it names: null bytes, control characters, invisible
 * characters, and characters that normalize (NFKC) to a dot, slash or backslash, such as the
 * fullwidth solidus or the one-dot leader.
 */
export function assertCleanPathText(path: string, argument = 'path'): void {
  if (path.length === 0) {
    throw new ToolError('INVALID_ARGUMENTS', `${argument} is empty; pass a path relative to the workspace`);
  }
  if (path.includes('\0')) {
    throw new ToolError('INVALID_ARGUMENTS', `${argument} contains a null byte; remove it`);
  }
  if (CONTROL.test(path)) {
    throw new ToolError('INVALID_ARGUMENTS', `${argument} contains a control character; remove it`);
  }
  if (INVISIBLE.test(path)) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${argument} contains an invisible or bidirectional-control character; retype the path in plain characters`,
    );
  }
  if (LONE_SURROGATE.test(path)) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${argument} holds half of a UTF-16 surrogate pair, which no file name can hold; send the whole character or remove it`,
    );
  }
  if (path.includes('\\')) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${argument} contains a backslash; separate directories with "/"`,
    );
  }
  for (const char of path) {
    if (char.charCodeAt(0) < 0x80) continue;
    if (SEPARATOR_LOOKALIKES.test(char.normalize('NFKC')) || CONFUSABLE_SEPARATORS.test(char)) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `${argument} contains "${char}" (U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}), which looks like a dot or slash; use the ASCII character`,
      );
    }
  }
  if (path.startsWith('~')) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `${argument} starts with "~", which is not expanded; pass a path relative to the workspace`,
    );
  }
}
