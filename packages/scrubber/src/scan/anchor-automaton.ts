import type { SecretRule } from '../types.js';
import { pairWeight } from './pair-weights.js';

// Every anchor of every rule in one table, read once per character of a text: each anchor is
// keyed on one pair of adjacent characters (its rarest; a one-character anchor on every pair that
// ends with it), so the pass looks up `previous << 7 | current` and, only where a key ends,
// compares the anchors keyed there.

/** An anchor and where its key character sits in it. */
export interface AnchorEntry {
  readonly ruleIndex: number;
  /** Index in the anchor of the character the pass stands on when the key is seen. */
  readonly offset: number;
  /** The anchor's character codes, compared at a key. */
  readonly codes: Int32Array;
}

/** The compiled anchors of a set of rules. */
export interface AnchorAutomaton {
  /**
   * For each ASCII pair (`previous << 7 | current`), its slot in {@link slots}; 0 when no key ends
   * there and `current` is not a line break.
   */
  readonly pairs: Uint16Array;
  /** Anchors to compare at a key, by slot (slot 0 is empty). */
  readonly slots: readonly (readonly AnchorEntry[])[];
  /** By slot: the rule index + 1 when the slot holds only one one-character anchor, else 0. */
  readonly direct: Uint16Array;
  /** Anchors keyed on a non-ASCII character (custom rules may have one), by that character. */
  readonly wide: ReadonlyMap<number, readonly AnchorEntry[]>;
  /** The slot of a line break that ends no key (the pass notes the line and moves on), else 0. */
  readonly lineOnly: number;
}

/** Where in `anchor` its key character sits: the end of its rarest ASCII pair, else a non-ASCII character. */
function keyOffset(codes: Int32Array, forced: ReadonlySet<number>): number {
  let best = -1;
  let bestWeight = Number.POSITIVE_INFINITY;
  for (let i = 1; i < codes.length; i++) {
    const previous = codes[i - 1] as number;
    const current = codes[i] as number;
    if (previous >= 128 || current >= 128) continue;
    const weight = pairWeight(previous, current, forced);
    if (weight < bestWeight) {
      bestWeight = weight;
      best = i;
    }
  }
  if (best !== -1) return best;
  for (let i = 0; i < codes.length; i++) if ((codes[i] as number) >= 128) return i;
  return 0; // a one-character ASCII anchor
}

/** Builds the automaton of every anchor of `rules`. */
export function buildAnchorAutomaton(rules: readonly SecretRule[]): AnchorAutomaton {
  const bySlotKey = new Map<number, AnchorEntry[]>();
  const wide = new Map<number, AnchorEntry[]>();
  const single = new Map<number, AnchorEntry[]>();
  const forced = new Set<number>();
  for (const rule of rules)
    for (const anchor of rule.anchors)
      if (anchor.length === 1 && anchor.charCodeAt(0) < 128) forced.add(anchor.charCodeAt(0));
  rules.forEach((rule, ruleIndex) => {
    for (const anchor of rule.anchors) {
      // Code units, as `charCodeAt` reads them (a character beyond the BMP is two).
      const units = new Int32Array(anchor.length);
      for (let i = 0; i < anchor.length; i++) units[i] = anchor.charCodeAt(i);
      const offset = keyOffset(units, forced);
      const entry: AnchorEntry = { ruleIndex, offset, codes: units };
      const key = units[offset] as number;
      if (key >= 128) {
        const list = wide.get(key) ?? [];
        list.push(entry);
        wide.set(key, list);
      } else if (units.length === 1) {
        const list = single.get(key) ?? [];
        list.push(entry);
        single.set(key, list);
      } else {
        const pair = ((units[offset - 1] as number) << 7) | key;
        const list = bySlotKey.get(pair) ?? [];
        list.push(entry);
        bySlotKey.set(pair, list);
      }
    }
  });
  const pairs = new Uint16Array(1 << 14);
  // Slot 0 is empty: the pass moves on. Every pair ending in a line break has a slot, so the pass
  // stops there and notes the line break (maybe with no anchor to compare).
  const slots: AnchorEntry[][] = [[]];
  // Pairs with the same entries share a slot (every pair ending in `:` holds the `:` anchors).
  const slotOf = new Map<string, number>();
  const ids = new Map<AnchorEntry, number>();
  for (let pair = 0; pair < 1 << 14; pair++) {
    const entries = [...(single.get(pair & 127) ?? []), ...(bySlotKey.get(pair) ?? [])];
    const lineBreak = (pair & 127) === 10;
    if (entries.length === 0 && !lineBreak) continue;
    for (const entry of entries) if (!ids.has(entry)) ids.set(entry, ids.size);
    const signature = `${lineBreak ? 'n' : ''}${entries.map((entry) => ids.get(entry)).join(',')}`;
    let slot = slotOf.get(signature);
    if (slot === undefined) {
      slot = slots.length;
      slots.push(entries);
      slotOf.set(signature, slot);
    }
    pairs[pair] = slot;
  }
  const direct = new Uint16Array(slots.length);
  slots.forEach((entries, slot) => {
    const only = entries.length === 1 ? entries[0] : undefined;
    if (only !== undefined && only.codes.length === 1) direct[slot] = only.ruleIndex + 1;
  });
  return { pairs, slots, wide, direct, lineOnly: slotOf.get('n') ?? 0 };
}
