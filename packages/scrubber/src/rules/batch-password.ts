import type { RuleMatch } from '../types.js';
import { argumentAfter, argumentEnd, isPlaceholderArgument, isShellSyntax } from './arguments.js';
import { isBlank, isQuote } from './characters.js';
import type { BatchPassword } from './command-table.js';

// A password given as a positional argument in batch mode: `htpasswd -b file user password`.

const MAX_WORD = 256;
const MAX_WORDS = 12;

/**
 * The password after the option cluster at `index` (its letters end at `nameEnd`) when the
 * cluster holds `batch.letter`: the positional argument after `batch.before` others (one fewer
 * when `batch.dropsOne` is given, here or in `earlier`, the command's text before the cluster),
 * skipping options and the values of `batch.valued`.
 */
export function batchPassword(
  text: string,
  index: number,
  nameEnd: number,
  batch: BatchPassword,
  earlier: string,
): RuleMatch | undefined {
  const cluster = text.slice(index + 1, nameEnd);
  if (!cluster.includes(batch.letter)) return undefined;
  const next = text.charCodeAt(nameEnd);
  if (!(isBlank(next) || isQuote(next) || next === 0)) return undefined;
  const dropsOne = (letters: string): boolean =>
    batch.dropsOne !== undefined && letters.includes(batch.dropsOne);
  let before = batch.before - (dropsOne(cluster) || optionLettersIn(earlier).some(dropsOne) ? 1 : 0);
  let skipValue = false;
  let cursor = nameEnd;
  for (let words = 0; words < MAX_WORDS; words++) {
    const argument = argumentAfter(text, cursor);
    if (argument.start === cursor) return undefined; // no further argument on this line
    if (text.slice(cursor, argument.start).includes('`')) return undefined; // a substitution, or a code span's end
    const start = argument.start;
    const end = argumentEnd(text, start, argument, MAX_WORD);
    if (end === undefined || end === start) return undefined;
    const first = text.charCodeAt(start);
    if (argument.quote === 0 && isShellSyntax(first)) return undefined;
    cursor = argument.quote === 0 ? end : end + (text.charCodeAt(end) === 92 ? 2 : 1);
    if (skipValue) skipValue = false;
    else if (first === 45 && argument.quote === 0) {
      const option = text.slice(start, end);
      skipValue = batch.valued.includes(option);
      if (dropsOne(option.slice(1)) && before === batch.before) before--;
    } else if (before > 0) before--;
    else {
      if (isPlaceholderArgument(text.slice(start, end))) return undefined;
      return { start, end, kind: 'password' };
    }
  }
  return undefined;
}

/** A short-option cluster; group 1 is its letters (`-nB` gives `nB`). */
export const OPTION_CLUSTER = /(?:^|[\s'"])-([A-Za-z]{1,8})(?=[\s'"]|$)/g;

/** The letters of each short-option cluster in `text`. */
function optionLettersIn(text: string): string[] {
  return [...text.matchAll(OPTION_CLUSTER)].map((match) => match[1] ?? '');
}
