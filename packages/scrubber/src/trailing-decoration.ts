// An unquoted value ends at a blank, but a terminal's output may follow it with an emoji (`✅`,
// `🔑`) or a no-break space (U+00A0, which a word reader does not take for a blank): neither is
// part of the credential, so a finding gives them back.

/** Emoji (with their variation selectors, joiners and skin tones) and Unicode spaces at the end. */
const TRAILING =
  /(?:[\p{Extended_Pictographic}\p{Emoji_Modifier}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]|\u{FE0F}|\u{200D})+$/u;

/** The regexes of this module (checked for linear time by the regex safety test). */
export const TRAILING_PATTERNS: readonly RegExp[] = [TRAILING];

/**
 * The end of the finding `start`..`end` in `text` without emoji or Unicode spaces at its end, when
 * the value is not closed by a quote or `@` (a quoted value or a URL password holds what it holds);
 * `end` when nothing else is left.
 */
export function withoutTrailingDecoration(text: string, start: number, end: number): number {
  const last = text.charCodeAt(end - 1);
  // Only a non-ASCII last character can be decoration: the common case returns at once.
  if (last < 0xa0 || end - start < 2) return end;
  const after = text.charCodeAt(end);
  if (after === 34 || after === 39 || after === 96 || after === 64) return end;
  const trailing = TRAILING.exec(text.slice(Math.max(start, end - 64), end));
  if (trailing === null) return end;
  const trimmed = end - trailing[0].length;
  return trimmed > start ? trimmed : end;
}
