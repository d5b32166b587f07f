/** UTF-8 size of text, fast for large strings (`Buffer.byteLength`). */
export function textBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest prefix of `text` that fits `maxBytes` of UTF-8, cut at a line end when one is near. */
export function headOf(text: string, maxBytes: number): string {
  // text that fits is kept whole (before, one over a third of the cap lost its last line)
  if (text.length * 3 <= maxBytes || (text.length <= maxBytes && textBytes(text) <= maxBytes)) return text;
  let head = cutText(text, maxBytes);
  while (textBytes(head) > maxBytes) head = cutText(head, Math.floor(head.length * 0.9));
  const lineEnd = head.lastIndexOf('\n');
  if (lineEnd > head.length * 0.8) head = head.slice(0, lineEnd + 1);
  return head;
}

/** The first `max` UTF-16 units of `text`, one fewer where `max` would split a surrogate pair (an emoji). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** `text` cut to its first `max` UTF-16 units (see {@link cutText}) with "..." after, when it is longer. */
export function shortened(text: string, max: number): string {
  return text.length > max ? `${cutText(text, max)}...` : text;
}
