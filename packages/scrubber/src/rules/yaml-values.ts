// YAML's block scalars: `key: |` or `key: >-` and the value on the more-indented lines after it.

const MAX_VALUE = 512;
const MAX_BLANK = 64;

/** The indentation (spaces) of the line holding `index`, and where that line begins. */
function lineIndent(text: string, index: number): number {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  let cursor = lineStart;
  while (text.charCodeAt(cursor) === 32 || text.charCodeAt(cursor) === 45) cursor++; // `- key: |` too
  return cursor - lineStart;
}

/**
 * The value of a block scalar whose indicator (`|`, `>`, with `-`, `+` or a digit) is at `at`,
 * for the key starting at `keyStart`: from the first character of its first line to the end of
 * its last non-blank line (a stream holds it back while the text may go on: its end is near the
 * buffer's end); undefined when `at` holds no block indicator ending its line, or the value runs past
 * {@link MAX_VALUE} characters.
 */
export function blockScalar(
  text: string,
  at: number,
  keyStart: number,
): { start: number; end: number } | undefined {
  const indicator = text.charCodeAt(at);
  if (indicator !== 124 && indicator !== 62) return undefined;
  let cursor = at + 1;
  for (let steps = 0; steps < 2 && /[-+0-9]/.test(text.charAt(cursor)); steps++) cursor++;
  while (text.charCodeAt(cursor) === 32) cursor++;
  if (text.charCodeAt(cursor) === 13) cursor++;
  if (text.charCodeAt(cursor) !== 10) return undefined;
  const keyIndent = lineIndent(text, keyStart);
  let start = -1;
  let end = -1;
  let line = cursor + 1;
  while (line < text.length) {
    let content = line;
    while (text.charCodeAt(content) === 32) content++;
    const newline = text.indexOf('\n', line);
    const lineEnd = newline === -1 ? text.length : newline;
    const blank = content >= lineEnd || (content === lineEnd - 1 && text.charCodeAt(content) === 13);
    if (!blank) {
      if (content - line <= keyIndent) break; // a line indented no deeper than the key ends the value
      if (start === -1) start = content;
      end = text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    }
    if (start !== -1 && end - start > MAX_VALUE) return undefined;
    // Blank lines are bounded too: past them the value has ended.
    if (lineEnd - (start === -1 ? cursor : end) > MAX_BLANK || newline === -1) break;
    line = newline + 1;
  }
  return start === -1 ? undefined : { start, end };
}
