// Multi-literal search (Wu-Manber): looks at a block of 2-3 characters at the end of a window
// and skips ahead by up to the window length, so its cost hardly grows with the number of literals.

const TABLE_BITS = 15;
const TABLE_SIZE = 1 << TABLE_BITS;

/** A literal found in a text. */
export interface LiteralHit {
  readonly start: number;
  readonly end: number;
  readonly literalIndex: number;
}

/** A compiled set of literals. */
export interface LiteralSearcher {
  readonly size: number;
  search(text: string, onHit: (hit: LiteralHit) => void): void;
}

function hash2(text: string, end: number): number {
  return ((text.charCodeAt(end - 1) & 127) << 7) | (text.charCodeAt(end) & 127);
}

/**
 * Three characters (7 bits each) mixed by a multiplicative hash into the table: masking each
 * character to 5 bits would make hex digits collide with most letters (`0`-`9` with `p`-`y`,
 * `a`-`f` with `A`-`F`), and the hex forms of held values would cut the skips on ordinary text.
 */
function hash3(text: string, end: number): number {
  const packed =
    ((text.charCodeAt(end - 2) & 127) << 14) |
    ((text.charCodeAt(end - 1) & 127) << 7) |
    (text.charCodeAt(end) & 127);
  return Math.imul(packed, 0x9e3779b1) >>> (32 - TABLE_BITS);
}

/**
 * Compiles literals (each at least 2 characters) into a searcher that reports every occurrence
 * of every literal, overlapping ones included. Blocks are 3 characters when every literal has
 * at least 6 (better skips with many literals), else 2.
 */
export function createLiteralSearcher(literals: readonly string[]): LiteralSearcher {
  if (literals.length === 0) return { size: 0, search: () => {} };
  const window = Math.min(...literals.map((literal) => literal.length));
  if (window < 2) throw new RangeError('literals must be at least 2 characters long');
  const block = window >= 6 ? 3 : 2;
  const hash = block === 3 ? hash3 : hash2;
  const maxShift = window - block + 1;
  const shift = new Int32Array(TABLE_SIZE).fill(maxShift);
  const buckets: (number[] | undefined)[] = new Array(TABLE_SIZE);
  literals.forEach((literal, literalIndex) => {
    // A block ending at index `end` of the window sits `window - 1 - end` characters before its end.
    for (let end = block - 1; end < window; end++) {
      const slot = hash(literal, end);
      const distance = window - 1 - end;
      if (distance < (shift[slot] as number)) shift[slot] = distance;
    }
    const endSlot = hash(literal, window - 1);
    const bucket = buckets[endSlot] ?? [];
    bucket.push(literalIndex);
    buckets[endSlot] = bucket;
  });
  /** Reports the literals of the bucket at `slot` that occur in the window ending at `index`. */
  const report = (text: string, index: number, slot: number, onHit: (hit: LiteralHit) => void): void => {
    const bucket = buckets[slot];
    if (bucket === undefined) return;
    const start = index - window + 1;
    for (const literalIndex of bucket) {
      const literal = literals[literalIndex] as string;
      if (text.startsWith(literal, start)) onHit({ start, end: start + literal.length, literalIndex });
    }
  };
  return {
    size: literals.length,
    // Two loops with the hash written out (not one calling `hash`): the call through a variable
    // that may hold either function was not inlined, and cost about a third of the search.
    search(text, onHit) {
      const length = text.length;
      let index = window - 1;
      if (block === 3) {
        while (index < length) {
          const packed =
            ((text.charCodeAt(index - 2) & 127) << 14) |
            ((text.charCodeAt(index - 1) & 127) << 7) |
            (text.charCodeAt(index) & 127);
          const slot = Math.imul(packed, 0x9e3779b1) >>> (32 - TABLE_BITS);
          const step = shift[slot] as number;
          if (step > 0) index += step;
          else report(text, index++, slot, onHit);
        }
        return;
      }
      while (index < length) {
        const slot = ((text.charCodeAt(index - 1) & 127) << 7) | (text.charCodeAt(index) & 127);
        const step = shift[slot] as number;
        if (step > 0) index += step;
        else report(text, index++, slot, onHit);
      }
    },
  };
}
