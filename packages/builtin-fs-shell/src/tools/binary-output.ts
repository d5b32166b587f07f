import { formatBytes } from '../files/sniff.js';

// Characters that are not text: what UTF-8 decoding put in place of bytes it could not decode,
// and control characters other than tab, line breaks, backspace, form feed, escape (colours) and
// NUL (`find -print0` lists).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NOT_TEXT = /[\ufffd\u0001-\u0007\u000e-\u001a\u001c-\u001f\u007f]/gu;

/**
 * A line that replaces command output which is mostly not text (a compressed file, an image,
 * `/dev/urandom`): over a tenth of its characters, and at least 32, undecodable or control
 * characters. A Latin-1 text (a few undecodable bytes) is shown as it is.
 */
export function binarySummary(text: string): string | undefined {
  if (text.length < 32) return undefined;
  const count = text.match(NOT_TEXT)?.length ?? 0;
  if (count < 32 || count * 10 < text.length) return undefined;
  const bytes = Buffer.byteLength(text);
  return `[binary output: about ${formatBytes(bytes)} kept, ${count} of its ${text.length} characters not text, not shown; redirect it to a file and look at it with file, xxd | head or base64]`;
}

/** The output as the model sees it: as it is, or the binary summary. */
export function shownOutput(text: string): string {
  return binarySummary(text) ?? text;
}
