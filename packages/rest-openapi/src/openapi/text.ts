/**
 * Cuts text to `max` characters at a word boundary when one is near, ending with `…`.
 * Whitespace runs of three or more newlines are collapsed first.
 */
export function trimText(text: string, max: number): string {
  const clean = text
    .replace(/\r\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.7 ? cut.slice(0, space) : cut}…`;
}
