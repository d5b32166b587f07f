/**
 * A name pattern where `*` matches any characters (none included) and `?` one character,
 * compiled to a matcher that runs in about linear time: the text between stars is searched
 * left to right, each piece at the first place it fits. A regular expression with several `.*`
 * backtracks instead: `a*a*a*a*a*a*a*a*b` against a 64-character name did not finish in a
 * minute, nor `*a*b*c` against a word of 8,000 characters.
 */
export function globMatcher(pattern: string): (text: string) => boolean {
  const pieces = pattern.split('*');
  const first = pieces[0] as string;
  if (pieces.length === 1) return (text) => text.length === first.length && fitsAt(first, text, 0);
  const last = pieces[pieces.length - 1] as string;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  const least = first.length + last.length + middle.reduce((sum, piece) => sum + piece.length, 0);
  return (text) => {
    if (text.length < least || !fitsAt(first, text, 0)) return false;
    const end = text.length - last.length;
    if (!fitsAt(last, text, end)) return false;
    let at = first.length;
    for (const piece of middle) {
      const found = search(piece, text, at, end);
      if (found < 0) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/** Whether `piece` (with `?` matching any one character) is the text at `at`. */
function fitsAt(piece: string, text: string, at: number): boolean {
  if (at < 0 || at + piece.length > text.length) return false;
  for (let index = 0; index < piece.length; index++) {
    const char = piece[index];
    if (char !== '?' && char !== text[at + index]) return false;
  }
  return true;
}

/** The first place at or after `from` where `piece` fits and ends by `end`, or -1. */
function search(piece: string, text: string, from: number, end: number): number {
  if (!piece.includes('?')) {
    const found = text.indexOf(piece, from);
    return found >= 0 && found + piece.length <= end ? found : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (fitsAt(piece, text, at)) return at;
  return -1;
}
