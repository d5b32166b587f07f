import { assignElement, assignWords } from '../facts/array-assignments.js';
import { MAX_INDEXED } from '../facts/array-keys.js';
import { isAssociative } from '../facts/associative-arrays.js';
import type { LineFacts } from '../facts/line-facts.js';
import { forgetVariable } from '../facts/variables.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';

/** mapfile's options that take a value. */
const WITH_VALUE = 'dnOsuCc';

/** What `mapfile`/`readarray` was given: its options and the array it fills. */
interface MapfileCall {
  readonly array: string;
  readonly delimiter: string;
  readonly trim: boolean;
  readonly skip: number;
  readonly count: number;
  readonly origin?: number;
  readonly descriptor?: string;
  readonly callback?: ShellWord;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The options and operand, as bash's getopt reads them; undefined when bash would refuse them. */
function parse(args: readonly ShellWord[]): MapfileCall | 'unknown' {
  const values: Record<string, ShellWord> = {};
  let trim = false;
  let index = 0;
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return 'unknown';
    if (word.text === '--') {
      index++;
      break;
    }
    if (!word.text.startsWith('-') || word.text === '-') break;
    for (let at = 1; at < word.text.length; at++) {
      const letter = word.text[at] as string;
      if (letter === 't') trim = true;
      else if (WITH_VALUE.includes(letter)) {
        const value = at + 1 < word.text.length ? staticWord(word.text.slice(at + 1)) : args[++index];
        if (!value) return 'unknown';
        values[letter] = value;
        break;
      } else return 'unknown';
    }
  }
  const operands = args.slice(index);
  const array = operands[0];
  if (operands.length > 1 || array?.dynamic || (array && !NAME.test(array.text))) return 'unknown';
  const number = (letter: string): number | undefined => {
    const value = values[letter];
    return value && !value.dynamic && /^[0-9]{1,6}$/.test(value.text) ? Number(value.text) : undefined;
  };
  const delimiter = values.d;
  if (delimiter?.dynamic) return 'unknown';
  for (const letter of 'nOs') if (values[letter] && number(letter) === undefined) return 'unknown';
  return {
    array: array?.text ?? 'MAPFILE',
    delimiter: delimiter === undefined ? '\n' : (delimiter.text[0] ?? '\u0000'),
    trim,
    skip: number('s') ?? 0,
    count: number('n') ?? 0,
    ...(values.O ? { origin: number('O') as number } : {}),
    ...(values.u ? { descriptor: values.u.text } : {}),
    ...(values.C ? { callback: values.C } : {}),
  };
}

/** The lines mapfile reads from a known text: split at the delimiter, skipped, counted, trimmed. */
function linesOf(call: MapfileCall, text: string): ShellWord[] {
  const records: string[] = [];
  let start = 0;
  while (start < text.length && (call.count === 0 || records.length < call.skip + call.count)) {
    const end = text.indexOf(call.delimiter, start);
    const stop = end < 0 ? text.length : end + 1;
    records.push(text.slice(start, stop));
    start = stop;
  }
  // bash drops NUL characters (a NUL delimiter is never kept) and, with -t, the delimiter.
  return records.slice(call.skip).map((record) => {
    const kept = call.trim && record.endsWith(call.delimiter) ? record.slice(0, -1) : record;
    return staticWord(kept.replaceAll('\u0000', ''));
  });
}

/**
 * `mapfile [-d DELIM] [-n COUNT] [-O ORIGIN] [-s COUNT] [-t] [-u FD] [-C CALLBACK] [ARRAY]`
 * (also `readarray`): the array's elements from its standard input when that is known (a
 * herestring, a static heredoc, `< <(echo ...)`, a static `echo` before it in a pipeline);
 * otherwise they are known only at run time. Returns the callback, which bash runs with words
 * appended (`-C`).
 */
export function recordMapfile(
  facts: LineFacts,
  args: readonly ShellWord[],
  input: readonly ShellWord[] | undefined,
): ShellWord | 'unknown' | undefined {
  const call = parse(args);
  if (call === 'unknown') {
    // A computed option may name any array: the last operand is the likely one.
    const last = args[args.length - 1];
    if (last && !last.dynamic && NAME.test(last.text) && !isAssociative(facts, last.text))
      forgetVariable(facts, last.text);
    return args.some((word) => /^-[^-]*C/.test(word.text) || word.dynamic) ? 'unknown' : undefined;
  }
  // bash refuses to fill an associative array.
  if (isAssociative(facts, call.array)) return call.callback;
  const known = call.descriptor === undefined && input?.every((value) => !value.dynamic);
  const readings = known && input ? input.map((value) => linesOf(call, value.text)) : undefined;
  if (!readings) {
    forgetVariable(facts, call.array);
    return call.callback;
  }
  if (call.origin === undefined) {
    // The array is emptied first, then filled from index 0.
    forgetVariable(facts, call.array);
    assignWords(facts, call.array, [{ ...staticWord(''), readings }]);
    return call.callback;
  }
  if (readings.length !== 1 || call.origin + (readings[0]?.length ?? 0) > MAX_INDEXED) {
    forgetVariable(facts, call.array);
    return call.callback;
  }
  const origin = call.origin;
  for (const [at, line] of (readings[0] as ShellWord[]).entries())
    assignElement(facts, call.array, origin + at, [line]);
  return call.callback;
}
