// Character classes shared by the rules (`curl -u`, `.netrc`, assignments).

/** A space or a tab. */
export function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** A space, a tab or a line break. */
export function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** A double, single or back quote. */
export function isQuote(code: number): boolean {
  return code === 34 || code === 39 || code === 96;
}

/** A character of a key or option name: an ASCII letter or digit, `_`, `-` or `.`. */
export function isNameCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45 ||
    code === 46
  );
}

/**
 * Where the line starting at `start` ends: its first line break, or the text's end; the search stops
 * at `start + max + 1` (a value longer than `max`), so callers check `end - start > max`.
 */
export function lineEnd(text: string, start: number, max: number): number {
  let end = start;
  while (
    end < text.length &&
    end - start <= max &&
    text.charCodeAt(end) !== 10 &&
    text.charCodeAt(end) !== 13
  )
    end++;
  return end;
}
