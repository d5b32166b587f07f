// Characters beyond ASCII that make a text worth a second, decoded reading: invisible and
// bidi-control characters, fullwidth forms, and the Cyrillic and Greek letters that look like
// Latin ones. The one pass over a text notes where they are (it looks at every non-ASCII
// character anyway), so finding them costs no search of its own.

const RANGES: readonly (readonly [number, number])[] = [
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
  [0xff01, 0xff5e],
  [0x0391, 0x03c9],
  [0x0405, 0x0458],
  [0x0501, 0x0501],
  [0x04bb, 0x04bb],
  [0x04cf, 0x04cf],
  [0x051b, 0x051b],
  [0x051d, 0x051d],
];

/** 1 for each UTF-16 code unit that triggers a decoded reading, by code. */
export const WIDE_TRIGGERS: Uint8Array = new Uint8Array(1 << 16);
for (const [low, high] of RANGES) WIDE_TRIGGERS.fill(1, low, high + 1);
