import type { Node } from 'web-tree-sitter';
import { namedChildrenOf } from './shell-parser.js';

/** Words that open a compound command in bash, where a command name is read. */
const OPENERS = new Set([
  '{',
  '!',
  'while',
  'until',
  'for',
  'if',
  'case',
  'select',
  '[[',
  'function',
  'time',
]);

/** Cheap test: the script may hold `time` or `!` before a compound command. */
export const MAY_PREFIX_COMPOUND = /(^|[\s;&|(`])(time|!)\s/;

/** Most syntax nodes searched for such prefixes; a bound on the work. */
const MAX_NODES = 100_000;

/**
 * The grammar reads `time { cmd; }`, `time while ...` and `! { cmd; }` as a command named
 * `time` or `{`, so the group is never seen; bash runs it (timed, or with its status negated).
 * Returns the ranges of those `time` words (with `-p` and `--`) and `!` marks, which change
 * nothing that runs, so the script can be parsed again without them.
 */
export function compoundPrefixes(root: Node): (readonly [number, number])[] {
  const ranges: (readonly [number, number])[] = [];
  const stack: Node[] = [root];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_NODES) {
    const node = stack.pop() as Node;
    if (node.type === 'command') {
      const words = namedChildrenOf(node);
      const name = words[0];
      if (name?.type === 'command_name' && name.text === 'time') {
        let index = 1;
        while (words[index]?.text === '-p' || words[index]?.text === '--') index++;
        const next = words[index];
        if (next && OPENERS.has(next.text)) ranges.push([name.startIndex, next.startIndex]);
      }
    } else if (node.type === 'negated_command') {
      const inner = node.namedChild(0);
      const name = inner?.type === 'command' ? inner.namedChild(0) : undefined;
      if (name?.type === 'command_name' && OPENERS.has(name.text)) {
        ranges.push([node.startIndex, node.startIndex + 1]);
        // `! ! ! { ...; }`: every `!` of the run goes at once (one parse, not one per mark).
        const words = inner ? namedChildrenOf(inner) : [];
        for (let index = 0; words[index]?.text === '!'; index++) {
          const word = words[index] as Node;
          ranges.push([word.startIndex, word.endIndex]);
        }
      }
    }
    for (const child of namedChildrenOf(node)) stack.push(child);
  }
  return ranges;
}

/** The script with each range blanked out (spaces keep every other offset where it was). */
export function blanked(script: string, ranges: readonly (readonly [number, number])[]): string {
  // One pass over the ranges in order (thousands of marks in a line cost linear time).
  const sorted = [...ranges].sort((first, second) => first[0] - second[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    parts.push(script.slice(at, from), ' '.repeat(end - from));
    at = end;
  }
  parts.push(script.slice(at));
  return parts.join('');
}
