import { ToolError } from '@toolplane/core';
import { hexDumpRuns } from './hex-dumps.js';
import { percentRuns } from './percent-runs.js';
import { secretVariants } from './secret-variants.js';
import type { Finding } from './types.js';
import { type LiteralHit, type LiteralSearcher, createLiteralSearcher } from './wu-manber.js';
import { wrappedBase64Runs } from './wrapped-base64.js';

/** Options of {@link ExactSecrets.add}. */
export interface AddSecretOptions {
  /** Kind named in the marker; `secret` by default. */
  readonly kind?: string;
}

/** The exact secret values a scrubber redacts, in all their encodings. */
export interface ExactSecrets {
  /** Registers a value; false when it is too short to redact safely (it is then ignored). */
  add(value: string, options?: AddSecretOptions): boolean;
  /** Appends a finding for every held value in `text`; `breaks`: its line breaks, when known. */
  scan(text: string, out: Finding[], breaks?: Int32Array): void;
  /** Longest literal searched for (for the stream hold-back). */
  readonly maxLength: number;
  readonly count: number;
}

const NO_FINDINGS: Finding[] = [];

/**
 * Reports the hits of one search at their original spans. One per set of secrets, its `onHit`
 * bound once: a scan allocates no closure per searched text (a stream scans every piece).
 */
class HitCollector {
  searcher: LiteralSearcher | undefined;
  out: Finding[] = NO_FINDINGS;
  private starts: Int32Array | undefined;
  private ends: Int32Array | undefined;
  private endShift = 1;
  private readonly kinds: readonly string[];
  private readonly onHit: (hit: LiteralHit) => void;

  constructor(kinds: readonly string[]) {
    this.kinds = kinds;
    this.onHit = (hit) => {
      const last = hit.end - 1;
      this.out.push({
        kind: this.kinds[hit.literalIndex] as string,
        ruleId: 'exact',
        start: this.starts === undefined ? hit.start : (this.starts[hit.start] as number),
        end: (this.ends === undefined ? last : (this.ends[last] as number)) + this.endShift,
      });
    };
  }

  /**
   * Searches `decoded` and reports each hit from `starts[first]` to `ends[last] + endShift` (the
   * hit's own span when the maps are undefined and the shift is 1).
   */
  mapped(
    decoded: string,
    starts: Int32Array | undefined,
    ends: Int32Array | undefined,
    endShift: number,
  ): void {
    this.starts = starts;
    this.ends = ends;
    this.endShift = endShift;
    this.searcher?.search(decoded, this.onHit);
  }
}

/** Keeps secret values and searches all their variants in one Wu-Manber pass. */
export function createExactSecrets(minLength: number): ExactSecrets {
  const literals: string[] = [];
  const kinds: string[] = [];
  const known = new Set<string>();
  let searcher: LiteralSearcher | undefined;
  let maxLength = 0;
  let minLiteral = Number.POSITIVE_INFINITY;
  let count = 0;
  const collector = new HitCollector(kinds);
  return {
    add(value, options) {
      if (typeof value !== 'string')
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `addSecret expects a string, got ${value === null ? 'null' : typeof value}`,
        );
      const kind = options?.kind ?? 'secret';
      if (!/^[a-z0-9_]+$/.test(kind))
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `secret kind ${JSON.stringify(kind)} must be snake_case (a-z, 0-9, _)`,
        );
      if (value.length < minLength) return false;
      if (known.has(value)) return true;
      known.add(value);
      count++;
      for (const variant of secretVariants(value, Math.max(minLength, 8))) {
        literals.push(variant.literal);
        kinds.push(kind);
        maxLength = Math.max(maxLength, variant.literal.length);
      }
      if (value.length < 8 && !literals.includes(value)) {
        literals.push(value);
        kinds.push(kind);
      }
      // Every byte percent-escaped: three characters a UTF-8 byte (the stream holds that much back).
      maxLength = Math.max(maxLength, 3 * new TextEncoder().encode(value).length);
      minLiteral = Math.min(minLiteral, value.length);
      searcher = undefined;
      return true;
    },
    scan(text, out, breaks) {
      if (literals.length === 0) return;
      searcher ??= createLiteralSearcher(literals);
      collector.searcher = searcher;
      collector.out = out;
      collector.mapped(text, undefined, undefined, 1);
      // Percent-encoded runs (every byte escaped, lower-case escapes): search them decoded.
      for (const run of percentRuns(text, minLiteral)) collector.mapped(run.text, run.starts, run.ends, 0);
      // Base64 or hex wrapped into lines: search the runs joined, map hits back across the line breaks.
      for (const run of wrappedBase64Runs(text, breaks))
        collector.mapped(run.text, run.positions, run.positions, 1);
      // Hex dumps (`xxd`, `hexdump -C`): the bytes read back; a hit runs to the end of the line
      // of its last byte, so the text column, which shows the value too, goes with it.
      for (const run of hexDumpRuns(text)) collector.mapped(run.text, run.positions, run.lineEnds, 0);
      collector.out = NO_FINDINGS;
    },
    get maxLength() {
      return maxLength;
    },
    get count() {
      return count;
    },
  };
}
