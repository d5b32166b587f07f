import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import type { ShellWord } from '../words/shell-word.js';
import type { ArgumentRule } from './rule-verdict.js';

/** Most argument lists of one command judged one by one; more make the command asked. */
export const MAX_ARGUMENT_LISTS = 64;

const splits = (word: ShellWord): boolean => word.readings?.some((fields) => fields.length !== 1) === true;

/**
 * The argument lists a command may get when some of its words expand into several fields with
 * the values set earlier in the line (`A=(img /dev/sda); cp "${A[@]}"`, `X="-rf /"; rm $X`):
 * one list per combination of those words' readings, each field its own argument. Undefined
 * when no word splits (its words are judged as they are); 'too-many' past
 * {@link MAX_ARGUMENT_LISTS}.
 */
export function argumentLists(command: SimpleCommand): ShellWord[][] | 'too-many' | undefined {
  if (!command.args.some(splits)) return undefined;
  let lists: ShellWord[][] = [[]];
  for (const word of command.args) {
    const readings = splits(word) ? (word.readings as readonly (readonly ShellWord[])[]) : [[word]];
    if (readings.length === 1) {
      for (const list of lists) list.push(...(readings[0] as readonly ShellWord[]));
      continue;
    }
    lists = lists.flatMap((list) => readings.map((fields) => [...list, ...fields]));
    if (lists.length > MAX_ARGUMENT_LISTS) return 'too-many';
  }
  return lists;
}

/**
 * Judges a default rule on each argument list of {@link argumentLists}: denied when every list
 * matches it, asked when some do. Returns whether the command was denied.
 */
export function judgeArgumentLists(
  state: AnalysisState,
  command: SimpleCommand,
  rule: ArgumentRule,
): boolean {
  const lists = argumentLists(command);
  if (lists === undefined || lists === 'too-many') return false;
  const verdicts = lists.map((args) =>
    args.some((word) => word.dynamic)
      ? undefined
      : rule(
          args.map((word) => word.text),
          { ...command, args },
        ),
  );
  const first = verdicts.find((verdict) => verdict !== undefined);
  if (first && verdicts.every((verdict) => verdict !== undefined)) {
    report(state, 'deny', first.category, first.reason, command.text);
    return true;
  }
  if (first) notUnderstood(state, `some expansions of its words match: ${first.reason}`, command.text);
  return false;
}
