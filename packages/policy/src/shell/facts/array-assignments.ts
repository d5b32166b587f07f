import type { Node } from 'web-tree-sitter';
import { namedChildrenOf } from '../parse/shell-parser.js';
import { expandedWords } from '../words/brace-expansion.js';
import type { ShellWord } from '../words/shell-word.js';
import { withReadings } from '../words/word-readings.js';
import {
  ELEMENT,
  MAX_INDEXED,
  allKey,
  arrayName,
  elementKey,
  elementsOf,
  joinElements,
  sparseKey,
  unplacedKey,
} from './array-keys.js';
import { hasSubscripts, MAX_ELEMENTS, associativeEntries, indexedEntries } from './array-literals.js';
import { assignAssociative, isAssociative } from './associative-arrays.js';
import { type LineFacts, MAX_VALUES, RUN_TIME, distinct } from './line-facts.js';
import { denseIndexes, markSparse, placeElement, sparseIndexes } from './sparse-arrays.js';
import { assignVariable, forgetVariable } from './variables.js';

/** Most positions of a sparse array followed (each change rebuilds its lists). */
const MAX_SPARSE = 256;

/**
 * The possible element lists of array `name` now: from `name[@]` when it was set in the line,
 * else its scalar value as element 0 (an environment value when the line never set it).
 */
function currentLists(facts: LineFacts, name: string): ShellWord[][] {
  const whole = facts.variables.get(allKey(name));
  if (whole) return whole.map(elementsOf);
  return (facts.variables.get(name) ?? [RUN_TIME]).map((value) => [value]);
}

/**
 * Records the possible element lists of array `name`: the whole (`name[@]`) and each of its
 * first {@link MAX_INDEXED} elements (`name`, `name[1]`...; an element some list lacks is unknown).
 * A `fresh` array replaces the old one; otherwise a sparse array keeps its element variables (its
 * positions are not indexes) and what was assigned at unknown indexes stays possible.
 */
function storeArray(facts: LineFacts, variable: string, lists: readonly ShellWord[][], fresh = false): void {
  const name = facts.variables.resolveName(variable);
  if (lists.length > MAX_VALUES) facts.overflow = true;
  if (!fresh && facts.variables.has(sparseKey(name))) {
    // A sparse array is rebuilt at each change: past MAX_SPARSE positions the line is asked.
    // Once the line is asked for its size, a sparse array is no longer rebuilt at each change.
    if ((lists[0]?.length ?? 0) > MAX_SPARSE || facts.overflow) {
      facts.overflow = true;
      facts.variables.set(allKey(name), [RUN_TIME]);
      markSparse(facts.variables, name, undefined);
      return;
    }
    facts.variables.set(allKey(name), distinct(facts, lists.map(joinElements)));
    return;
  }
  const unplaced = fresh ? undefined : facts.variables.get(unplacedKey(name));
  for (const key of [...facts.variables.keys()]) if (arrayName(key) === name) facts.variables.delete(key);
  if (unplaced) facts.variables.set(unplacedKey(name), unplaced);
  const longest = Math.min(MAX_INDEXED, Math.max(0, ...lists.map((list) => list.length)));
  for (let index = 0; index < longest; index++)
    assignVariable(
      facts,
      elementKey(name, index),
      lists.map((list) => list[index] ?? RUN_TIME),
    );
  facts.variables.set(allKey(name), distinct(facts, lists.map(joinElements)));
}

/** `A=(x y)` or `A+=(x y)`: each word gives one element per field of each of its readings. */
export function assignArray(facts: LineFacts, name: string, array: Node, append: boolean): void {
  if (isAssociative(facts, name)) {
    assignAssociative(facts, name, associativeEntries(facts, array), append);
    return;
  }
  if (hasSubscripts(array)) {
    const entries = append ? undefined : indexedEntries(facts, array);
    if (entries) storeIndexed(facts, name, entries);
    else forgetVariable(facts, name);
    return;
  }
  const words: ShellWord[] = [];
  for (const child of namedChildrenOf(array))
    if (child && child.type !== 'comment')
      for (const word of expandedWords(facts, child)) words.push(withReadings(facts, word));
  assignWords(facts, name, words, append);
}

/**
 * Array `name` made of words (`set -- x y`, a function's arguments), or those words appended
 * to it: one element per field of each of their readings.
 */
export function assignWords(
  facts: LineFacts,
  name: string,
  words: readonly ShellWord[],
  append = false,
): void {
  const whole = facts.variables.get(allKey(name));
  const simple = words.every((word) => !word.glob && (word.readings?.length ?? 1) === 1);
  if (
    append &&
    whole?.length === 1 &&
    !whole[0]?.dynamic &&
    simple &&
    !facts.variables.has(sparseKey(name))
  ) {
    appendKnown(
      facts,
      name,
      whole[0] as ShellWord,
      words.flatMap((word) => word.readings?.[0] ?? [word]),
    );
    return;
  }
  let lists: ShellWord[][] = append ? currentLists(facts, name) : [[]];
  for (const word of words) {
    // A file-name pattern may give any number of elements: the ones after it are not followed.
    const readings = word.glob ? [[{ ...word, dynamic: true }]] : (word.readings ?? [[word]]);
    if (readings.length === 1 && !word.glob) {
      // One reading: appended in place (copying every list per word would be quadratic).
      for (const list of lists) list.push(...(readings[0] as readonly ShellWord[]));
      if ((lists[0]?.length ?? 0) > MAX_ELEMENTS) {
        facts.overflow = true;
        return;
      }
      continue;
    }
    const next: ShellWord[][] = [];
    for (const list of lists) for (const fields of readings) next.push([...list, ...fields]);
    if (next.length > MAX_VALUES) {
      facts.overflow = true;
      return;
    }
    lists = next;
    if (word.glob) break;
  }
  const before = append && facts.variables.has(sparseKey(name)) ? currentLists(facts, name) : undefined;
  storeArray(facts, name, lists, !append);
  if (before) appendedToSparse(facts, name, before, lists);
}

/**
 * `A+=(x y)` to an array with one possible value: the elements are added to its text and
 * indexes without decoding it again (appending one by one stays linear in the array's length).
 */
function appendKnown(facts: LineFacts, name: string, whole: ShellWord, elements: readonly ShellWord[]): void {
  let count = 0;
  for (let at = whole.text.indexOf(ELEMENT); at >= 0; at = whole.text.indexOf(ELEMENT, at + 1)) count++;
  if (count + elements.length > MAX_ELEMENTS) {
    facts.overflow = true;
    return;
  }
  elements.forEach((element, offset) => {
    if (count + offset < MAX_INDEXED) assignVariable(facts, elementKey(name, count + offset), [element]);
  });
  facts.variables.set(allKey(name), [{ ...whole, text: whole.text + joinElements(elements).text }]);
}

/** `shift [N]`: the positional parameters lose their first N. */
export function shiftWords(facts: LineFacts, name: string, count: number): void {
  if (!facts.variables.has(allKey(name))) return;
  storeArray(
    facts,
    name,
    currentLists(facts, name).map((list) => list.slice(count)),
  );
}

/** `A[3]=x`: element 3 of every possible list (appended when a list is shorter). */
export function assignElement(
  facts: LineFacts,
  name: string,
  index: number,
  values: readonly ShellWord[],
): void {
  if (facts.variables.has(sparseKey(name))) {
    const indexes = sparseIndexes(facts.variables, name);
    const placed = indexes && placeElement(currentLists(facts, name), indexes, index, values);
    // With the indexes known the element goes in its place; otherwise the value is added to
    // each list (every old element stays possible).
    storeArray(
      facts,
      name,
      placed
        ? placed.lists
        : currentLists(facts, name).flatMap((list) => values.map((value) => [...list, value])),
    );
    if (placed) markSparse(facts.variables, name, placed.indexes);
    if (index < MAX_INDEXED) facts.variables.set(elementKey(name, index), [...values]);
    return;
  }
  const lists: ShellWord[][] = [];
  const current = currentLists(facts, name);
  for (const list of current)
    for (const value of values) {
      const copy = [...list];
      if (index < copy.length) copy[index] = value;
      else copy.push(value);
      lists.push(copy);
    }
  storeArray(facts, name, lists);
  // Past the end of a shorter list (a sparse array) positions are no longer indexes: the
  // elements from there on are unknown, but this one.
  const shortest = Math.min(...current.map((list) => list.length));
  if (index <= shortest) return;
  for (let at = shortest; at < MAX_INDEXED; at++) facts.variables.delete(elementKey(name, at));
  assignVariable(facts, elementKey(name, index), values);
  const dense = denseIndexes(current);
  markSparse(facts.variables, name, dense ? [...dense, index] : undefined);
}

/** An indexed array from its elements by index, sparse or not. */
function storeIndexed(
  facts: LineFacts,
  name: string,
  entries: ReadonlyMap<number, readonly ShellWord[]>,
): void {
  const indexes = [...entries.keys()].sort((first, second) => first - second);
  let lists: ShellWord[][] = [[]];
  for (const index of indexes) {
    lists = lists.flatMap((list) => (entries.get(index) ?? []).map((value) => [...list, value]));
    if (lists.length > MAX_VALUES) {
      facts.overflow = true;
      return;
    }
  }
  storeArray(facts, name, lists, true);
  if (indexes.every((index, at) => index === at)) return;
  // Sparse: positions are not indexes.
  markSparse(facts.variables, name, indexes);
  for (let at = 0; at < MAX_INDEXED; at++) facts.variables.delete(elementKey(name, at));
  for (const index of indexes)
    if (index < MAX_INDEXED) facts.variables.set(elementKey(name, index), entries.get(index) ?? [RUN_TIME]);
}

/**
 * `A+=(x)` on a sparse array: the new elements take the indexes after its last one when those
 * are known (`A=([5]=x); A+=(y)` puts y at 6); otherwise they may be at any index.
 */
function appendedToSparse(facts: LineFacts, name: string, before: ShellWord[][], after: ShellWord[][]): void {
  const indexes = sparseIndexes(facts.variables, name);
  const added = (after[0]?.length ?? 0) - (before[0]?.length ?? 0);
  const aligned = before.every((list) => list.length === indexes?.length);
  if (indexes && aligned && after.every((list) => list.length === (after[0]?.length ?? 0))) {
    const next = (indexes[indexes.length - 1] ?? -1) + 1;
    for (let offset = 0; offset < added; offset++) {
      const position = indexes.length + offset;
      if (next + offset < MAX_INDEXED)
        assignVariable(
          facts,
          elementKey(name, next + offset),
          after.map((list) => list[position] ?? RUN_TIME),
        );
    }
    markSparse(facts.variables, name, [
      ...indexes,
      ...Array.from({ length: added }, (_, offset) => next + offset),
    ]);
    return;
  }
  const values = after.flatMap((list) => list.slice(-Math.max(added, 1)));
  facts.variables.set(
    unplacedKey(name),
    distinct(facts, [...(facts.variables.get(unplacedKey(name)) ?? []), ...values]),
  );
}
