// Hex digits, read by the decoders of percent escapes, hex dumps and JSON `\u` escapes.

/** The value of the hex digit with character code `code` (either case), or -1. */
export function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}
