import type { CommandPattern } from './command-pattern.js';
import type { SimpleCommand } from './shell/index.js';

// A command pattern can only match a command with its name: the command's own (`rm` of
// `/bin/rm`), or the first word as written (`sudo` of `sudo rm`). Long rule lists are indexed by
// that name, so a call tries the rules for the names in its line, not all of them (100,000 deny
// rules cost about 0.3 s of CPU per shell call, each rule parsing the command's options again).

/** Shorter lists are tried whole: an index would cost more than it saves. */
const INDEXED_FROM = 64;

interface PatternIndex {
  readonly byHead: ReadonlyMap<string, readonly number[]>;
  /** Patterns whose name holds `*` or `?`: tried for every command. */
  readonly wild: readonly number[];
}

const indexes = new WeakMap<readonly CommandPattern[], PatternIndex>();

function indexOf(patterns: readonly CommandPattern[]): PatternIndex {
  let index = indexes.get(patterns);
  if (index === undefined) {
    const byHead = new Map<string, number[]>();
    const wild: number[] = [];
    patterns.forEach((pattern, position) => {
      if (/[*?]/.test(pattern.head)) wild.push(position);
      else {
        const list = byHead.get(pattern.head);
        if (list === undefined) byHead.set(pattern.head, [position]);
        else list.push(position);
      }
    });
    index = { byHead, wild };
    indexes.set(patterns, index);
  }
  return index;
}

/**
 * The patterns of `patterns` that may match `command`, in their order (the first deny rule that
 * matches names the reason). All of them when the command is named at run time.
 */
export function patternsFor(
  patterns: readonly CommandPattern[],
  command: SimpleCommand,
): readonly CommandPattern[] {
  if (patterns.length < INDEXED_FROM) return patterns;
  const first = command.written[0];
  if (first === undefined || first.dynamic || command.name === '') return patterns;
  const { byHead, wild } = indexOf(patterns);
  const positions = [...(byHead.get(command.name) ?? [])];
  if (first.text !== command.name) positions.push(...(byHead.get(first.text) ?? []));
  positions.push(...wild);
  if (positions.length === 0) return [];
  positions.sort((a, b) => a - b);
  const picked: CommandPattern[] = [];
  let previous = -1;
  for (const position of positions) {
    if (position !== previous) picked.push(patterns[position] as CommandPattern);
    previous = position;
  }
  return picked;
}
