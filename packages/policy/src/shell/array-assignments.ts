import type { Node } from 'web-tree-sitter';
import {
  ELEMENT,
  MAX_INDEXED,
  allKey,
  arrayName,
  elementKey,
  elementsOf,
  joinElements,
  literalIndex,
  sparseKey,
  unplacedKey,
} from './arrays.js';
import { assignAssociative, isAssociative } from './associative.js';
import { type SubscriptedElement, hasSubscripts, subscriptedElement } from './compound-elements.js';
import { type LineFacts, MAX_VALUES, RUN_TIME, assignVariable, distinct, forgetVariable } from './facts.js';
import { namedChildrenOf } from './parser.js';
import { expandedWords } from './braces.js';
import { valuesOf, withReadings } from './readings.js';
import type { ShellWord } from './shell-word.js';

/** Most elements an array followed may have; more make the line asked. */
const MAX_ELEMENTS = 4096;

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
  storeArray(facts, name, lists, !append);
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
    // Where the index lies among the positions is not known: the value is added to each list
    // (every old element stays possible) and the element variable of that index replaced.
    storeArray(
      facts,
      name,
      currentLists(facts, name).flatMap((list) => values.map((value) => [...list, value])),
    );
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
  facts.variables.set(sparseKey(name), [RUN_TIME]);
}

/** The fields of an element without a subscript, when it has one reading and no file-name pattern. */
function fieldsOf(facts: LineFacts, node: Node): ShellWord[] | undefined {
  const fields: ShellWord[] = [];
  for (const word of expandedWords(facts, node)) {
    const readings = withReadings(facts, word).readings ?? [[word]];
    if (word.glob || readings.length !== 1) return undefined;
    fields.push(...(readings[0] as readonly ShellWord[]));
  }
  return fields;
}

/** The single static text of a subscript, if it has one. */
function keyText(facts: LineFacts, element: SubscriptedElement): string | undefined {
  const keys = valuesOf(facts, withReadings(facts, element.key));
  return keys.length === 1 && !keys[0]?.dynamic ? keys[0]?.text : undefined;
}

/**
 * `A=([1]=x y [5]=z)`: elements by index (an element without a subscript takes the index after
 * the one before); undefined when an index is not a literal number or an element not plain.
 */
function indexedEntries(facts: LineFacts, array: Node): Map<number, ShellWord[]> | undefined {
  const entries = new Map<number, ShellWord[]>();
  let next = 0;
  for (const child of namedChildrenOf(array)) {
    if (!child || child.type === 'comment') continue;
    const element = subscriptedElement(child);
    if (element === 'unknown' || element?.append) return undefined;
    if (element) {
      const at = literalIndex(keyText(facts, element) ?? '');
      if (at === undefined) return undefined;
      entries.set(at, valuesOf(facts, withReadings(facts, element.value)));
      next = at + 1;
      continue;
    }
    const fields = fieldsOf(facts, child);
    if (!fields || next + fields.length > MAX_ELEMENTS) return undefined;
    for (const field of fields) entries.set(next++, [field]);
  }
  return entries;
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
  facts.variables.set(sparseKey(name), [RUN_TIME]);
  for (let at = 0; at < MAX_INDEXED; at++) facts.variables.delete(elementKey(name, at));
  for (const index of indexes)
    if (index < MAX_INDEXED) facts.variables.set(elementKey(name, index), entries.get(index) ?? [RUN_TIME]);
}

/**
 * The entries of `m=([k]=v ...)` for an associative array, or of `m=(k v ...)` (key, value,
 * key, value...); undefined when they are not known.
 */
function associativeEntries(
  facts: LineFacts,
  array: Node,
): { key: string | undefined; values: ShellWord[] }[] | undefined {
  const children = namedChildrenOf(array).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
  const out: { key: string | undefined; values: ShellWord[] }[] = [];
  if (hasSubscripts(array)) {
    for (const child of children) {
      const element = subscriptedElement(child);
      // bash refuses an element without a subscript here and goes on.
      if (element === undefined) continue;
      if (element === 'unknown' || element.append) return undefined;
      out.push({ key: keyText(facts, element), values: valuesOf(facts, withReadings(facts, element.value)) });
    }
    return out;
  }
  const fields: ShellWord[] = [];
  for (const child of children) {
    const more = fieldsOf(facts, child);
    if (!more) return undefined;
    fields.push(...more);
  }
  for (let at = 0; at < fields.length; at += 2) {
    const key = fields[at] as ShellWord;
    out.push({ key: key.dynamic ? undefined : key.text, values: [fields[at + 1] ?? valueWordEmpty] });
  }
  return out;
}

const valueWordEmpty: ShellWord = { text: '', dynamic: false, glob: false, substitutions: [] };
