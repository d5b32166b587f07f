import { type ShellWord, literalPrefix } from '../words/shell-word.js';
import { allKey, arrayName, elementsOf, joinElements, sparseKey } from './array-keys.js';
import { isAssociative, setAssociative } from './associative-arrays.js';
import {
  type LineFacts,
  MAX_TEXT,
  MAX_VARIABLES,
  RUN_TIME,
  distinct,
  union,
  valueWord,
} from './line-facts.js';
import { markSparse, sparseIndexes } from './sparse-arrays.js';

/** Records `name=value` (or `name+=value`) for the words that follow. */
export function assignVariable(
  facts: LineFacts,
  name: string,
  values: readonly ShellWord[],
  appending = false,
): void {
  let append = appending;
  if (!facts.variables.has(name) && facts.variables.size >= MAX_VARIABLES) {
    facts.overflow = true;
    return;
  }
  // `declare -i n`: the value is arithmetic, evaluated now (`n+=1` adds).
  let next = [...values];
  if (facts.integers.has(arrayName(name))) {
    next = integerValues(facts, values, append);
    append = false;
  }
  if (append) {
    next = [];
    for (const old of facts.variables.get(name) ?? [RUN_TIME])
      for (const value of values) {
        if (old.text.length + value.text.length > MAX_TEXT) {
          facts.overflow = true;
          next.push(RUN_TIME);
          continue;
        }
        next.push(
          valueWord(
            old.text + value.text,
            old.dynamic || value.dynamic,
            old.dynamic ? literalPrefix(old) : old.text + (literalPrefix(value) ?? ''),
          ),
        );
      }
  }
  // No value at all is never a reading that matches nothing: it stays unknown.
  const stored = next.length > 0 ? union(facts, [], next) : [RUN_TIME];
  facts.variables.set(name, stored);
  // `m=x` sets the element of key 0 of an associative array m.
  if (!name.includes('[') && isAssociative(facts, name)) {
    setAssociative(facts, name, '0', stored);
    return;
  }
  // `A=x` sets element 0 of an array A.
  const whole = name.includes('[') ? undefined : facts.variables.get(allKey(name));
  // In a sparse array the first position may not be index 0: the value is put before it
  // (and index 0 added to its indexes when they are known).
  const sparse = !name.includes('[') && facts.variables.has(sparseKey(name));
  const indexes = sparse ? sparseIndexes(facts.variables, name) : undefined;
  const kept = !sparse || indexes?.[0] === 0 ? 1 : 0;
  if (whole && indexes && kept === 0) markSparse(facts.variables, name, [0, ...indexes]);
  if (whole)
    facts.variables.set(
      allKey(name),
      distinct(
        facts,
        whole.flatMap((old) => stored.map((value) => joinElements([value, ...elementsOf(old).slice(kept)]))),
      ),
    );
}

/** Forgets a variable (`unset`): its value is unknown again. */
export function forgetVariable(facts: LineFacts, variable: string): void {
  // `unset r` for a nameref r unsets the variable it names.
  const name = facts.variables.resolveName(variable);
  for (const key of facts.variables.keys()) if (arrayName(key) === name) facts.variables.delete(key);
}

/**
 * Runs `walk` with variables set for one command only (`OUT=x cmd`, `env OUT=x cmd`): the
 * command and the programs it starts see them, the rest of the line does not.
 */
export function withVariables(
  facts: LineFacts,
  assignments: readonly { readonly name: string; readonly values: readonly ShellWord[] }[],
  walk: () => void,
): void {
  if (assignments.length === 0) {
    walk();
    return;
  }
  const before = new Map(assignments.map(({ name }) => [name, facts.variables.get(name)]));
  for (const { name, values } of assignments) assignVariable(facts, name, values);
  walk();
  // Only the names set for the command go back; what the command itself set stays.
  for (const [name, values] of before) {
    if (values) facts.variables.set(name, values);
    else facts.variables.delete(name);
  }
}

/** Most texts with a command substitution judged as arithmetic in one line; more overflow. */
const MAX_ARITHMETIC_CODE = 64;

/**
 * Puts the values bash evaluates as arithmetic that hold a command substitution (`$(` or a
 * backtick, which run when they sit in an array index) on {@link LineFacts.arithmeticCode}.
 */
export function queueArithmeticCode(facts: LineFacts, values: readonly ShellWord[]): void {
  for (const value of values) {
    if (!/\$\(|`/.test(value.text) || facts.arithmeticSeen.has(value.text)) continue;
    if (facts.arithmeticSeen.size >= MAX_ARITHMETIC_CODE) {
      facts.overflow = true;
      return;
    }
    facts.arithmeticSeen.add(value.text);
    facts.arithmeticCode.push(value.text);
  }
}

/**
 * What an integer variable holds after an assignment: a literal whole number stays, anything
 * else is a number worked out at run time; code in the values is queued to be judged.
 */
function integerValues(facts: LineFacts, values: readonly ShellWord[], append: boolean): ShellWord[] {
  queueArithmeticCode(facts, values);
  const only = values.length === 1 ? values[0] : undefined;
  return !append && only && !only.dynamic && /^-?(0|[1-9][0-9]{0,8})$/.test(only.text) ? [only] : [RUN_TIME];
}
