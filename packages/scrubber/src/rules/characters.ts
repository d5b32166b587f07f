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
