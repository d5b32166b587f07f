import { type LineFacts, RUN_TIME } from '../facts/line-facts.js';
import { assignKeyed } from '../facts/subscript-assignments.js';
import { assignVariable } from '../facts/variables.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';
import { valuesOf } from '../words/word-readings.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An array element named as text (`printf -v 'A[0]'`, `read 'm[k]'`): the array and the key. */
const ELEMENT_NAME = /^([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]$/s;

/** Sets a variable, or the element `'A[1]'` / `'m[k]'` names (its subscript read as written). */
function setNamed(facts: LineFacts, name: string, values: readonly ShellWord[]): void {
  if (NAME.test(name)) {
    assignVariable(facts, name, values);
    return;
  }
  const element = ELEMENT_NAME.exec(name);
  if (!element) return;
  const key = element[2] as string;
  assignKeyed(facts, element[1] as string, /[$`"'\\]/.test(key) ? undefined : key, values, false);
}

/** Sets names to values known only at run time. */
function unknown(facts: LineFacts, names: readonly string[]): void {
  for (const name of names) setNamed(facts, name, [RUN_TIME]);
}

/**
 * `printf -v NAME FORMAT [ARG...]`: NAME's value when FORMAT is plain text or `%s` with one
 * argument; any other format gives a value known only at run time.
 */
function recordPrintf(facts: LineFacts, args: readonly ShellWord[]): void {
  let index = 0;
  let name: string | undefined;
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) break;
    if (word.text === '--') {
      index++;
      break;
    }
    if (word.text === '-v') name = args[++index]?.text;
    else if (word.text.startsWith('-v')) name = word.text.slice(2);
    else break;
  }
  if (name === undefined) return;
  const [format, ...rest] = args.slice(index);
  if (format && !format.dynamic && !/[%\\]/.test(format.text) && rest.length === 0)
    setNamed(facts, name, [format]);
  else if (format && !format.dynamic && format.text === '%s' && rest.length === 1)
    setNamed(facts, name, valuesOf(facts, rest[0]));
  else unknown(facts, [name]);
}

/** read's options that take a value (`-d DELIM`, `-a ARRAY`, `-p PROMPT`...). */
const READ_WITH_VALUE = 'adinNptu';

/**
 * `read [OPTIONS] NAME...`: each NAME gets a field of the line read; from a herestring
 * (`read -r A B <<< "x /dev/sda"`) the fields are known when its text is, otherwise they are
 * known only at run time (as is a `getopts` target; `mapfile` is in `mapfile.ts`).
 */
export function recordRead(
  facts: LineFacts,
  name: string,
  args: readonly ShellWord[],
  input?: ShellWord,
): void {
  if (name === 'printf') {
    recordPrintf(facts, args);
    return;
  }
  if (name !== 'read') {
    // `getopts SPEC NAME`: the last operand.
    const last = args[args.length - 1];
    if (last && !last.dynamic) unknown(facts, [last.text]);
    return;
  }
  const names: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return;
    if (word.text.startsWith('-') && names.length === 0) {
      const letters = word.text.slice(1);
      for (let at = 0; at < letters.length; at++) {
        if (!READ_WITH_VALUE.includes(letters[at] as string)) continue;
        const value = at + 1 < letters.length ? letters.slice(at + 1) : args[++index]?.text;
        if (letters[at] === 'a' && value !== undefined) names.push(value);
        break;
      }
      continue;
    }
    names.push(word.text);
  }
  const values = input ? valuesOf(facts, input) : [];
  const line = values.length === 1 && !values[0]?.dynamic ? (values[0] as ShellWord).text : undefined;
  if (line === undefined || names.length === 0) {
    unknown(facts, names.length > 0 ? names : ['REPLY']);
    return;
  }
  // The default IFS: blanks separate fields, the last name takes the rest of the line.
  const fields = line.trim().split(/\s+/);
  names.forEach((variable, at) => {
    const text = at === names.length - 1 ? fields.slice(at).join(' ') : (fields[at] ?? '');
    setNamed(facts, variable, [staticWord(text)]);
  });
}
