// Multi-literal search (Wu-Manber with 2-character blocks): skips several characters per step,
// so its cost hardly grows with the number of literals.

const HASH_BITS = 7;
const TABLE_SIZE = 1 << (2 * HASH_BITS);
const MASK = (1 << HASH_BITS) - 1;

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

function blockHash(first: number, second: number): number {
  return ((first & MASK) << HASH_BITS) | (second & MASK);
}

/**
 * Compiles literals (each at least 2 characters) into a searcher that reports every occurrence
 * of every literal, overlapping ones included.
 */
export function createLiteralSearcher(literals: readonly string[]): LiteralSearcher {
  if (literals.length === 0) return { size: 0, search: () => {} };
  const window = Math.min(...literals.map((literal) => literal.length));
  if (window < 2) throw new RangeError('literals must be at least 2 characters long');
  const shift = new Int32Array(TABLE_SIZE).fill(window - 1);
  const buckets = new Map<number, number[]>();
  literals.forEach((literal, literalIndex) => {
    for (let q = 0; q + 1 < window; q++) {
      const hash = blockHash(literal.charCodeAt(q), literal.charCodeAt(q + 1));
      const distance = window - 2 - q;
      if (distance < (shift[hash] as number)) shift[hash] = distance;
    }
    const endHash = blockHash(literal.charCodeAt(window - 2), literal.charCodeAt(window - 1));
    const bucket = buckets.get(endHash) ?? [];
    bucket.push(literalIndex);
    buckets.set(endHash, bucket);
  });
  const bucketTable: (number[] | undefined)[] = new Array(TABLE_SIZE);
  for (const [hash, bucket] of buckets) bucketTable[hash] = bucket;
  return {
    size: literals.length,
    search(text, onHit) {
      const length = text.length;
      let index = window - 1;
      while (index < length) {
        const hash = blockHash(text.charCodeAt(index - 1), text.charCodeAt(index));
        const step = shift[hash] as number;
        if (step > 0) {
          index += step;
          continue;
        }
        const bucket = bucketTable[hash];
        if (bucket !== undefined) {
          const start = index - window + 1;
          for (const literalIndex of bucket) {
            const literal = literals[literalIndex] as string;
            if (text.startsWith(literal, start)) onHit({ start, end: start + literal.length, literalIndex });
          }
        }
        index++;
      }
    },
  };
}
