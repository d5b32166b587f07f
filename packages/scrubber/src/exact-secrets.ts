import { ToolError } from '@toolplane/core';
import { hexDumpRuns } from './hex-dumps.js';
import { percentRuns } from './percent-runs.js';
import { secretVariants } from './secret-variants.js';
import type { Finding } from './types.js';
import { type LiteralSearcher, createLiteralSearcher } from './wu-manber.js';
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

/** Keeps secret values and searches all their variants in one Wu-Manber pass. */
export function createExactSecrets(minLength: number): ExactSecrets {
  const literals: string[] = [];
  const kinds: string[] = [];
  const known = new Set<string>();
  let searcher: LiteralSearcher | undefined;
  let maxLength = 0;
  let minLiteral = Number.POSITIVE_INFINITY;
  let count = 0;
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
      const active = searcher;
      /** Searches `decoded` and reports each hit at the original span of its first and last character. */
      const searchMapped = (
        decoded: string,
        startOf: (first: number) => number,
        endOf: (last: number) => number,
      ): void => {
        active.search(decoded, (hit) => {
          out.push({
            kind: kinds[hit.literalIndex] as string,
            ruleId: 'exact',
            start: startOf(hit.start),
            end: endOf(hit.end - 1),
          });
        });
      };
      searchMapped(
        text,
        (first) => first,
        (last) => last + 1,
      );
      // Percent-encoded runs (every byte escaped, lower-case escapes): search them decoded.
      for (const run of percentRuns(text, minLiteral))
        searchMapped(
          run.text,
          (first) => run.starts[first] as number,
          (last) => run.ends[last] as number,
        );
      // Base64 or hex wrapped into lines: search the runs joined, map hits back across the line breaks.
      for (const run of wrappedBase64Runs(text, breaks))
        searchMapped(
          run.text,
          (first) => run.positions[first] as number,
          (last) => (run.positions[last] as number) + 1,
        );
      // Hex dumps (`xxd`, `hexdump -C`): the bytes read back; a hit runs to the end of the line
      // of its last byte, so the text column, which shows the value too, goes with it.
      for (const run of hexDumpRuns(text))
        searchMapped(
          run.text,
          (first) => run.positions[first] as number,
          (last) => run.lineEnds[last] as number,
        );
    },
    get maxLength() {
      return maxLength;
    },
    get count() {
      return count;
    },
  };
}
