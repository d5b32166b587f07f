/**
 * Scores strings against one `target` by Dice similarity over character pairs (0..1). Each
 * distinct pair of the target gets a slot (pairs keyed by their two UTF-16 code units as one
 * number); a score counts pairs per slot in a typed array, so scoring every line of a file is
 * linear in its length with one map lookup per pair.
 */
class PairSimilarity {
  private readonly slots = new Map<number, number>();
  private readonly wanted: Int32Array;
  private readonly taken: Int32Array;
  /** The score each slot's count belongs to: a slot of an earlier score counts as zero. */
  private readonly stamps: Int32Array;
  private stamp = 0;

  constructor(private readonly target: string) {
    const wanted: number[] = [];
    for (let i = 0; i < target.length - 1; i++) {
      const pair = target.charCodeAt(i) * 65536 + target.charCodeAt(i + 1);
      let slot = this.slots.get(pair);
      if (slot === undefined) {
        slot = wanted.length;
        this.slots.set(pair, slot);
        wanted.push(0);
      }
      wanted[slot] = (wanted[slot] as number) + 1;
    }
    this.wanted = Int32Array.from(wanted);
    this.taken = new Int32Array(wanted.length);
    this.stamps = new Int32Array(wanted.length);
  }

  /** The similarity of `text` to the target; 0 when it cannot reach `floor`. */
  score(text: string, floor = 0): number {
    if (text === this.target) return 1;
    const mine = text.length - 1;
    const theirs = this.target.length - 1;
    if (mine < 1 || theirs < 1) return 0;
    // At most min(mine, theirs) pairs are shared: a length too different cannot reach the floor.
    if ((2 * Math.min(mine, theirs)) / (mine + theirs) < floor) return 0;
    const { slots, wanted, taken, stamps } = this;
    const stamp = ++this.stamp;
    let shared = 0;
    for (let i = 0; i < mine; i++) {
      const slot = slots.get(text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1));
      if (slot === undefined) continue;
      if (stamps[slot] !== stamp) {
        stamps[slot] = stamp;
        taken[slot] = 0;
      }
      if ((taken[slot] as number) >= (wanted[slot] as number)) continue;
      taken[slot] = (taken[slot] as number) + 1;
      shared++;
    }
    return (2 * shared) / (mine + theirs);
  }
}

/** 1-based line number of a character offset. */
export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Whitespace runs as one space, none at the ends (the replace skipped for most code lines). */
function collapse(text: string): string {
  const trimmed = text.trim();
  return /\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
}

/**
 * The 1-based line where `target` (whitespace collapsed) starts in the `collapsed` lines, as
 * whole lines; undefined if nowhere. Linear in the text: the lines are joined once and
 * searched, a match kept only from a line's start to a line's end.
 */
function sameTextElsewhere(collapsed: readonly string[], target: string): number | undefined {
  const kept: string[] = [];
  const lineOfKept: number[] = [];
  const startOfKept: number[] = []; // position of each kept line in the joined text, ascending
  let length = 0;
  for (let i = 0; i < collapsed.length; i++) {
    const line = collapsed[i] as string;
    if (line === '') continue;
    if (kept.length > 0) length++;
    startOfKept.push(length);
    lineOfKept.push(i);
    kept.push(line);
    length += line.length;
  }
  const joined = kept.join(' ');
  const keptStartingAt = (position: number): number => {
    let low = 0;
    let high = startOfKept.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = startOfKept[middle] as number;
      if (start === position) return middle;
      if (start < position) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  };
  for (let at = joined.indexOf(target); at !== -1; at = joined.indexOf(target, at + 1)) {
    const end = at + target.length;
    const first = keptStartingAt(at);
    if (first !== -1 && (end === joined.length || keptStartingAt(end + 1) !== -1))
      return (lineOfKept[first] as number) + 1;
  }
  return undefined;
}

interface Candidate {
  readonly line: number;
  readonly score: number;
}

/** Lines scoring at least 0.5 against `first`: the best three, best first (ties: earlier line). */
function closestLines(collapsed: readonly string[], first: string): Candidate[] {
  const scorer = new PairSimilarity(first);
  const best: Candidate[] = [];
  for (let i = 0; i < collapsed.length; i++) {
    const score = scorer.score(collapsed[i] as string, 0.5);
    if (score < 0.5 || (best.length === 3 && score <= (best[2] as Candidate).score)) continue;
    best.push({ line: i + 1, score });
    best.sort((a, b) => b.score - a.score || a.line - b.line);
    if (best.length > 3) best.pop();
  }
  return best;
}

/**
 * Why `needle` was not found and where the closest text is: the same text with other
 * whitespace, or the lines most like its first line. Linear in the file's length, whatever the
 * needle's: it used to compare each window of the needle's height with it (an edit of a
 * 100,000-line file with a 5,000-line old_string: minutes).
 */
export function describeNearest(text: string, needle: string): string {
  const lines = text.split('\n');
  const first =
    needle
      .split('\n')
      .map(collapse)
      .find((line) => line.length > 0) ?? '';
  if (first === '') return 'the text to find is only whitespace';
  const collapsed = lines.map(collapse);
  const same = sameTextElsewhere(collapsed, collapse(needle));
  if (same !== undefined) {
    return `the same text exists with different whitespace or indentation at line ${same}; copy it exactly from read output (without the line-number prefix)`;
  }
  const ranked = closestLines(collapsed, first);
  if (ranked.length === 0) return 'nothing similar was found; read the file again to see its current content';
  const shown = ranked.map(
    ({ line }) => `  line ${line}: ${(lines[line - 1] as string).trim().slice(0, 200)}`,
  );
  return `the closest lines are:\n${shown.join('\n')}`;
}
