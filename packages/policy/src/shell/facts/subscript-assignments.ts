import type { ShellWord } from '../words/shell-word.js';
import { assignElement } from './array-assignments.js';
import {
  MAX_INDEXED,
  allKey,
  arithmeticIndex,
  elementKey,
  elementsOf,
  joinElements,
  sparseKey,
  unplacedKey,
} from './array-keys.js';
import { associativeKey, isAssociative, removeAssociative, setAssociative } from './associative-arrays.js';
import { type LineFacts, RUN_TIME, distinct, valueWord } from './line-facts.js';
import { denseIndexes, markSparse, sparseIndexes } from './sparse-arrays.js';
import { assignVariable, forgetVariable } from './variables.js';

/**
 * `A[x]=v` or `m[$k]=v` at an index or key known only at run time: any element may now hold v
 * (the elements known before stay possible too).
 */
export function assignAnywhere(
  facts: LineFacts,
  name: string,
  values: readonly ShellWord[],
  append: boolean,
): void {
  const before = facts.variables.get(unplacedKey(name)) ?? [];
  // `+=` appends to an element whose value is not known: the value alone or a run-time one.
  facts.variables.set(
    unplacedKey(name),
    distinct(facts, [...before, ...values, ...(append ? [RUN_TIME] : [])]),
  );
}

/**
 * `unset 'A[3]'` or `unset 'm[k]'`: that element is removed and reads as empty; the other
 * elements keep their indexes, so the array becomes sparse. An element whose position is not
 * known (a sparse array, an index known only at run time) leaves the array's list as it was.
 */
export function unsetElement(facts: LineFacts, name: string, subscript: string): void {
  if (subscript === '@' || subscript === '*') {
    forgetVariable(facts, name);
    return;
  }
  if (isAssociative(facts, name)) {
    removeAssociative(facts, name, subscript);
    return;
  }
  const index = arithmeticIndex(facts.variables, subscript);
  if (index === undefined) return;
  const whole = facts.variables.get(allKey(name));
  const placed = Array.from({ length: index + 1 }, (_, at) =>
    facts.variables.has(elementKey(name, at)),
  ).every(Boolean);
  const indexes = sparseIndexes(facts.variables, name);
  // The position of the index: itself in a dense array, its place among a sparse one's indexes.
  const sparse = facts.variables.has(sparseKey(name));
  const position = sparse ? (indexes?.indexOf(index) ?? -1) : placed ? index : -1;
  if (whole && position >= 0) {
    const lists = whole.map(elementsOf);
    const left = (indexes ?? denseIndexes(lists))?.filter((existing) => existing !== index);
    const kept = lists.map((list) => list.filter((_, at) => at !== position));
    facts.variables.set(allKey(name), distinct(facts, kept.map(joinElements)));
    markSparse(facts.variables, name, left);
  }
  if (index < MAX_INDEXED) facts.variables.set(elementKey(name, index), [valueWord('', false)]);
}

/**
 * `A[3]=x`, `m[key]=x` with the subscript's text when it is known (`undefined` otherwise): an
 * associative array's key is text, an indexed array's an arithmetic index (followed when it is
 * a number or a variable holding one); `+=` appends to the element's value.
 */
export function assignKeyed(
  facts: LineFacts,
  name: string,
  key: string | undefined,
  values: readonly ShellWord[],
  append: boolean,
): void {
  if (isAssociative(facts, name)) {
    const variable = key === undefined ? undefined : associativeKey(name, key);
    if (variable && append) assignVariable(facts, variable, values, true);
    setAssociative(
      facts,
      name,
      key,
      variable && append ? (facts.variables.get(variable) ?? [RUN_TIME]) : values,
    );
    if (key === undefined) assignAnywhere(facts, name, values, append);
    return;
  }
  // The subscript is arithmetic: `A[i]` is `A[$i]`, element 0 when i is unset.
  const at = key === undefined ? undefined : arithmeticIndex(facts.variables, key);
  if (at === undefined) {
    assignAnywhere(facts, name, values, append);
    return;
  }
  if (append) assignVariable(facts, elementKey(name, at), values, true);
  assignElement(facts, name, at, append ? (facts.variables.get(elementKey(name, at)) ?? [RUN_TIME]) : values);
}
