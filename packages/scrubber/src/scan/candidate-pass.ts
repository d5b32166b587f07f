import type { AnchorAutomaton, AnchorEntry } from './anchor-automaton.js';
import { WIDE_TRIGGERS } from './wide-triggers.js';

// The one pass over a text: every character is looked up once in the anchor automaton, and each
// anchor found is noted for its rule. Rules then run only at their own candidates, rule by rule.

/** Where each rule's anchors start in the last text passed over. */
export interface CandidateLists {
  /** `starts[rule]` holds `counts[rule]` positions (ascending once {@link orderedStarts} has run). */
  readonly starts: Int32Array[];
  readonly counts: Int32Array;
  /** A rule whose anchors are keyed at different offsets may note them out of order. */
  readonly unordered: Uint8Array;
  readonly lastStart: Int32Array;
  /** Where the characters of {@link WIDE_TRIGGERS} are, ascending (`wideCount` of them). */
  wide: Int32Array;
  wideCount: number;
  /** Where the line breaks (`\n`) are, ascending (`lineCount` of them). */
  lines: Int32Array;
  lineCount: number;
}

export function createCandidateLists(ruleCount: number): CandidateLists {
  return {
    starts: Array.from({ length: ruleCount }, () => new Int32Array(64)),
    counts: new Int32Array(ruleCount),
    unordered: new Uint8Array(ruleCount),
    lastStart: new Int32Array(ruleCount),
    wide: new Int32Array(16),
    wideCount: 0,
    lines: new Int32Array(1024),
    lineCount: 0,
  };
}

/** Whether the anchor of `entry` occurs at `start`. */
function occursAt(text: string, start: number, codes: Int32Array): boolean {
  if (start < 0 || start + codes.length > text.length) return false;
  for (let i = 0; i < codes.length; i++) if (text.charCodeAt(start + i) !== codes[i]) return false;
  return true;
}

function note(lists: CandidateLists, ruleIndex: number, start: number): void {
  const count = lists.counts[ruleIndex] as number;
  let starts = lists.starts[ruleIndex] as Int32Array;
  if (count === starts.length) {
    const grown = new Int32Array(starts.length * 2);
    grown.set(starts);
    lists.starts[ruleIndex] = grown;
    starts = grown;
  }
  starts[count] = start;
  lists.counts[ruleIndex] = count + 1;
  if (start < (lists.lastStart[ruleIndex] as number)) lists.unordered[ruleIndex] = 1;
  lists.lastStart[ruleIndex] = start;
}

function noteWide(lists: CandidateLists, index: number): void {
  if (lists.wideCount === lists.wide.length) {
    const grown = new Int32Array(lists.wide.length * 2);
    grown.set(lists.wide);
    lists.wide = grown;
  }
  lists.wide[lists.wideCount++] = index;
}

function noteLine(lists: CandidateLists, index: number): void {
  if (lists.lineCount === lists.lines.length) {
    const grown = new Int32Array(lists.lines.length * 2);
    grown.set(lists.lines);
    lists.lines = grown;
  }
  lists.lines[lists.lineCount++] = index;
}

function noteEntries(
  text: string,
  index: number,
  entries: readonly AnchorEntry[],
  lists: CandidateLists,
): void {
  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e] as AnchorEntry;
    const start = index - entry.offset;
    if (occursAt(text, start, entry.codes)) note(lists, entry.ruleIndex, start);
  }
}

/**
 * Passes over `text` once and fills `lists` with the start of every anchor of every rule, and
 * where the line breaks and the characters that call for a decoded reading are.
 */
export function findCandidates(text: string, automaton: AnchorAutomaton, lists: CandidateLists): void {
  lists.counts.fill(0);
  lists.unordered.fill(0);
  lists.lastStart.fill(-1);
  lists.wideCount = 0;
  lists.lineCount = 0;
  const { pairs, slots, wide, direct, lineOnly } = automaton;
  const hasWide = wide.size > 0;
  const length = text.length;
  let previous = 0;
  let index = 0;
  while (index < length) {
    // The inner loop does only the table look-up of each ASCII character and leaves at the first
    // that ends a key (or is not ASCII): V8 compiles this tight loop much better than one loop
    // that also handles the stops (about 1.3 times the characters a second).
    let code = 0;
    let slot = 0;
    while (index < length) {
      code = text.charCodeAt(index);
      if (code >= 128) break;
      slot = pairs[(previous << 7) | code] as number;
      previous = code;
      if (slot !== 0) break;
      index++;
    }
    if (index >= length) break;
    if (code >= 128) {
      previous = 0;
      if (WIDE_TRIGGERS[code] === 1) noteWide(lists, index);
      if (hasWide) {
        const entries = wide.get(code);
        if (entries !== undefined) noteEntries(text, index, entries, lists);
      }
    } else {
      // A slot holding one one-character anchor (`=` after a blank) needs no comparison; most
      // line breaks end no key (slot `lineOnly`): half of the stops in code, noted and left.
      if (code === 10) noteLine(lists, index);
      if (code !== 10 || slot !== lineOnly) {
        const rule = direct[slot] as number;
        if (rule !== 0) note(lists, rule - 1, index);
        else noteEntries(text, index, slots[slot] as readonly AnchorEntry[], lists);
      }
    }
    index++;
  }
}

/** Where the characters of {@link WIDE_TRIGGERS} are in the last text passed over. */
export function wideTriggers(lists: CandidateLists): Int32Array {
  return lists.wide.subarray(0, lists.wideCount);
}

/** Where the line breaks are in the last text passed over. */
export function lineBreaks(lists: CandidateLists): Int32Array {
  return lists.lines.subarray(0, lists.lineCount);
}

/** The starts of rule `ruleIndex`, ascending (sorted in place when they were noted out of order). */
export function orderedStarts(lists: CandidateLists, ruleIndex: number): Int32Array {
  const starts = (lists.starts[ruleIndex] as Int32Array).subarray(0, lists.counts[ruleIndex] as number);
  if (lists.unordered[ruleIndex] === 1) {
    starts.sort();
    lists.unordered[ruleIndex] = 0;
  }
  return starts;
}
