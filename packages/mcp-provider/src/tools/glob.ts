/**
 * Glob patterns for tool names, matched against the whole name. A tool name is not a path:
 * `*` and `?` take any character (`/`, `.`, a line break), where path globs (picomatch,
 * minimatch) stop `*` at `/` and never match `.` or `..`, so `admin/drop` escaped a deny
 * pattern `admin*`.
 *
 * A pattern is compiled to a small automaton and a name is matched by following every state
 * at once, character by character: the cost is at most the name's length times the pattern's.
 * (A regular expression backtracks: `*a*a*a*a*b` against a 3000-character name from a hostile
 * server did not end, and a deep nesting of braces did not compile.)
 */

/** One state: takes a character it accepts to `next`, or (`*`) stays and may go on to `next`. */
type State =
  | { readonly kind: 'one'; readonly accepts: (character: string) => boolean; next: number }
  | { readonly kind: 'star'; next: number }
  | { readonly kind: 'split'; readonly outs: number[] }
  | { readonly kind: 'match' };

/** Braces nested deeper than this are taken literally (no tool filter needs more). */
const MAX_BRACE_DEPTH = 32;

/** A class no character range can hold (`[z-a]`): the whole pattern is taken literally. */
class LiteralPattern extends Error {}

/** Characters a class may span: a longer one is no class, its `[` is itself. */
const MAX_CLASS_LENGTH = 256;

/** Index of the `]` that closes the class opened at `start` (at most {@link MAX_CLASS_LENGTH} on), or -1. */
function classEnd(pattern: readonly string[], start: number): number {
  let index = start + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index++;
  if (pattern[index] === ']') index++; // a leading `]` is a member
  const last = Math.min(pattern.length, start + MAX_CLASS_LENGTH);
  for (; index < last; index++) {
    if (pattern[index] === '\\') index++;
    else if (pattern[index] === ']') return index;
  }
  return -1;
}

/** `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` as a test of one character. */
function characterClass(body: readonly string[]): (character: string) => boolean {
  const negated = body[0] === '!' || body[0] === '^';
  const members = negated ? body.slice(1) : body;
  const ranges: Array<readonly [number, number]> = [];
  for (let index = 0; index < members.length; index++) {
    let character = members[index] as string;
    if (character === '\\' && index + 1 < members.length) character = members[++index] as string;
    const low = character.codePointAt(0) as number;
    if (members[index + 1] === '-' && index + 2 < members.length) {
      let end = members[index + 2] as string;
      index += 2;
      if (end === '\\' && index + 1 < members.length) end = members[++index] as string;
      const high = end.codePointAt(0) as number;
      if (high < low) throw new LiteralPattern();
      ranges.push([low, high]);
    } else ranges.push([low, low]);
  }
  return (character) => {
    const point = character.codePointAt(0) as number;
    return ranges.some(([low, high]) => point >= low && point <= high) !== negated;
  };
}

/** For each `{` that closes with at least one comma at its level: its `}` and those commas (one pass). */
function braceTable(pattern: readonly string[]): Map<number, { end: number; commas: number[] }> {
  const table = new Map<number, { end: number; commas: number[] }>();
  const open: Array<{ start: number; commas: number[] }> = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') index++;
    else if (character === '{') open.push({ start: index, commas: [] });
    else if (character === ',' && open.length > 0) open[open.length - 1]?.commas.push(index);
    else if (character === '}' && open.length > 0) {
      const brace = open.pop() as { start: number; commas: number[] };
      if (brace.commas.length > 0) table.set(brace.start, { end: index, commas: brace.commas });
    }
  }
  return table;
}

/** Builds the automaton, from the end of the pattern back to its start. */
class Builder {
  readonly states: State[] = [{ kind: 'match' }];
  private readonly braces: Map<number, { end: number; commas: number[] }>;

  constructor(pattern: readonly string[]) {
    this.braces = braceTable(pattern);
  }

  private add(state: State): number {
    this.states.push(state);
    return this.states.length - 1;
  }

  /** The states for `pattern[from, to)` that go on to `next`; returns the first. */
  sequence(pattern: readonly string[], from: number, to: number, next: number, depth: number): number {
    // items first (left to right, where escapes and brackets are read), then chained right to left
    const items: Array<(next: number) => number> = [];
    for (let index = from; index < to; index++) {
      const character = pattern[index] as string;
      if (character === '\\' && index + 1 < to) {
        const escaped = pattern[++index] as string;
        items.push((after) => this.add({ kind: 'one', accepts: (c) => c === escaped, next: after }));
      } else if (character === '*') {
        while (pattern[index + 1] === '*' && index + 1 < to) index++;
        items.push((after) => this.add({ kind: 'star', next: after }));
      } else if (character === '?') {
        items.push((after) => this.add({ kind: 'one', accepts: () => true, next: after }));
      } else if (character === '[' && classEnd(pattern, index) > index + 1 && classEnd(pattern, index) < to) {
        const end = classEnd(pattern, index);
        const accepts = characterClass(pattern.slice(index + 1, end));
        items.push((after) => this.add({ kind: 'one', accepts, next: after }));
        index = end;
      } else if (character === '{' && depth < MAX_BRACE_DEPTH && (this.braces.get(index)?.end ?? to) < to) {
        const { end, commas } = this.braces.get(index) as { end: number; commas: number[] };
        const bounds = [index, ...commas, end];
        items.push((after) => {
          const outs = bounds
            .slice(1)
            .map((bound, at) => this.sequence(pattern, (bounds[at] as number) + 1, bound, after, depth + 1));
          return this.add({ kind: 'split', outs });
        });
        index = end;
      } else {
        items.push((after) => this.add({ kind: 'one', accepts: (c) => c === character, next: after }));
      }
    }
    let first = next;
    for (let index = items.length - 1; index >= 0; index--)
      first = (items[index] as (next: number) => number)(first);
    return first;
  }
}

/** Adds `start` and every state reachable from it without a character to `into`. */
function close(states: readonly State[], start: number, into: Set<number>): void {
  const stack = [start];
  while (stack.length > 0) {
    const at = stack.pop() as number;
    if (into.has(at)) continue;
    into.add(at);
    const state = states[at] as State;
    if (state.kind === 'split') stack.push(...state.outs);
    else if (state.kind === 'star') stack.push(state.next);
  }
}

/**
 * A test for one glob pattern (`*`, `?`, `[abc]`, `[a-z]`, `[!abc]`, `{a,b}`, `\` escapes)
 * against a whole tool name. A class no character range can hold (`[z-a]`) makes the whole
 * pattern literal; braces nested more than 32 deep are taken literally.
 */
export function compileGlob(pattern: string): (name: string) => boolean {
  const characters = Array.from(pattern);
  const builder = new Builder(characters);
  let start: number;
  try {
    start = builder.sequence(characters, 0, characters.length, 0, 0);
  } catch (error) {
    if (!(error instanceof LiteralPattern)) throw error;
    return (name) => name === pattern;
  }
  const { states } = builder;
  return (name) => {
    let current = new Set<number>();
    close(states, start, current);
    for (const character of name) {
      const next = new Set<number>();
      for (const at of current) {
        const state = states[at] as State;
        if (state.kind === 'one' && state.accepts(character)) close(states, state.next, next);
        else if (state.kind === 'star') close(states, at, next);
      }
      if (next.size === 0) return false;
      current = next;
    }
    return current.has(0);
  };
}
