// Character classes shared by the command-line rules (`curl -u`, `.netrc`).

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
