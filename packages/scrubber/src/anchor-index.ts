import type { SecretRule } from './types.js';

/** Characters shared by many anchors; one `indexOf` pass per distinct probe serves them all. */
const PREFERRED_PROBES = '_-:=@/';

/** A rule's anchor and where in it the probe character sits. */
export interface AnchorEntry {
  readonly anchor: string;
  readonly offset: number;
  readonly ruleIndex: number;
  /** The anchor's character codes, compared inline (much cheaper than `startsWith` per hit). */
  readonly codes: Int32Array;
}

/** Whether `entry.anchor` occurs at `start`; compares the characters next to the probe first. */
export function anchorAt(text: string, start: number, entry: AnchorEntry): boolean {
  const codes = entry.codes;
  if (start < 0 || start + codes.length > text.length) return false;
  for (let i = entry.offset - 1; i >= 0; i--) if (text.charCodeAt(start + i) !== codes[i]) return false;
  for (let i = entry.offset + 1; i < codes.length; i++)
    if (text.charCodeAt(start + i) !== codes[i]) return false;
  return true;
}

/** All anchors that share one probe character. */
export interface ProbeGroup {
  readonly probe: string;
  readonly entries: readonly AnchorEntry[];
  /**
   * Entries by the ASCII code of the character just before the probe (anchors where the probe
   * is not the first character) ...
   */
  readonly byCodeBefore: readonly (readonly AnchorEntry[] | undefined)[];
  /** ... and by the character just after it (anchors that start with the probe). */
  readonly byCodeAfter: readonly (readonly AnchorEntry[] | undefined)[];
}

/**
 * Anchors searched whole, as their own probe, where no other anchor shares their probe character:
 * a native search for `</` returns only at a closing tag, where probing its `/` would return to
 * the scan at every slash of paths, URLs and comments; likewise `FIED` (sql_password's
 * `IDENTIFIED`) rather than every `F`.
 */
const WHOLE_PROBES: ReadonlySet<string> = new Set(['</', 'FIED']);

/** Where the probe character sits in `anchor`, or -1 when it has none (then its end is the probe). */
function probeOffset(anchor: string): number {
  if (WHOLE_PROBES.has(anchor)) return -1;
  for (const probe of PREFERRED_PROBES) {
    const index = anchor.indexOf(probe);
    if (index !== -1) return index;
  }
  for (let i = 0; i < anchor.length; i++) {
    const code = anchor.charCodeAt(i);
    if (code >= 65 && code <= 90) return i;
  }
  // `q` is the rarest lower-case letter in text and code (`sqlplus`: a pass over 24 MB of the
  // corpus measured 5.5 ms, against 12 ms for `plus`).
  const rare = anchor.indexOf('q');
  if (rare !== -1) return rare;
  return anchor.length > 1 ? -1 : 0;
}

/**
 * Groups every anchor of every rule by a probe character (the rarest-looking character of the
 * anchor: shared punctuation first, then an upper-case letter, then `q`; an anchor with none is probed
 * by its last four characters), so a scan costs one native `indexOf` pass per distinct probe instead of one
 * regex pass per rule.
 */
export function buildProbeGroups(rules: readonly SecretRule[]): ProbeGroup[] {
  const groups = new Map<string, AnchorEntry[]>();
  rules.forEach((rule, ruleIndex) => {
    for (const anchor of rule.anchors) {
      // A lower-case word such as `password` is probed by its last four characters (`word`): its
      // first letter alone would stop the scan at every `p`, and a native search for the whole
      // word stops at each `p` too (measured on the benchmark corpus: `word` costs a third).
      const found = probeOffset(anchor);
      const offset = found === -1 ? Math.max(0, anchor.length - 4) : found;
      const probe = found === -1 ? anchor.slice(offset) : (anchor[offset] as string);
      const entries = groups.get(probe) ?? [];
      const codes = Int32Array.from(anchor, (character) => character.charCodeAt(0));
      entries.push({ anchor, offset, ruleIndex, codes });
      groups.set(probe, entries);
    }
  });
  return [...groups].map(([probe, entries]) => {
    const byCodeBefore: AnchorEntry[][] = new Array(128);
    const byCodeAfter: AnchorEntry[][] = new Array(128);
    for (const entry of entries) {
      const table = entry.offset > 0 ? byCodeBefore : byCodeAfter;
      const code = entry.offset > 0 ? entry.codes[entry.offset - 1] : entry.codes[1];
      // A one-character anchor (`:`) has no neighbour: index 0 holds entries tried at every hit.
      const index = code === undefined || code >= 128 ? 0 : code;
      const bucket = table[index] ?? [];
      bucket.push(entry);
      table[index] = bucket;
    }
    return { probe, entries, byCodeBefore, byCodeAfter };
  });
}
