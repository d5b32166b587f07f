import type { ShellWord } from '../words/shell-word.js';
import { ELEMENT, allKey, elementsOf, joinElements } from './array-keys.js';
import { type LineFacts, MAX_VALUES, RUN_TIME, distinct, valueWord } from './line-facts.js';

/**
 * Associative arrays (`declare -A m=([k]=/dev/sda)`, `m[x]=v`): each element is kept as the
 * variable `m[KEY]` (key `0` is the scalar `m`, as in bash), the keys in the order they were
 * added as the value of a marker variable (which also says the array is associative), and the
 * whole array (`${m[@]}`) and its keys (`${!m[@]}`) as their possible orders: bash lists them in
 * the order of its hash table, which the analysis does not rely on, so every element is tried in
 * every position (all orders up to 4 elements, every rotation past that).
 */

/** The marker variable of associative array `name`: its keys in order ({@link joinElements}). */
const markerKey = (name: string): string => `${name}[${ELEMENT}]`;

/** The pseudo-array that holds the keys of associative array `name` (`${!name[@]}`). */
export const keysName = (name: string): string => `${name}[${ELEMENT}K]`;

/** The variable that holds the element of key `key` of associative array `name`. */
export const associativeKey = (name: string, key: string): string => (key === '0' ? name : `${name}[${key}]`);

/** Whether `name` was declared associative in the line (`declare -A`), in some reading at least. */
export function isAssociative(facts: LineFacts, name: string): boolean {
  return facts.variables.has(markerKey(name));
}

/** The keys of associative array `name` when they are known (one possible list), in order. */
export function knownKeys(facts: LineFacts, name: string): string[] | undefined {
  const marker = facts.variables.get(markerKey(name));
  if (marker?.length !== 1 || marker[0]?.dynamic) return undefined;
  const keys = elementsOf(marker[0] as ShellWord);
  return keys.some((key) => key.dynamic) ? undefined : keys.map((key) => key.text);
}

function setKeys(facts: LineFacts, name: string, keys: readonly string[] | undefined): void {
  facts.variables.set(markerKey(name), [
    keys ? joinElements(keys.map((key) => valueWord(key, false))) : RUN_TIME,
  ]);
}

/** The orders tried for `count` elements: every permutation up to 4, else every rotation. */
function orders(count: number): number[][] {
  const identity = Array.from({ length: count }, (_, index) => index);
  if (count > 4) return identity.map((shift) => identity.map((index) => (index + shift) % count));
  const out: number[][] = [];
  const permute = (prefix: number[], rest: number[]): void => {
    if (rest.length === 0) out.push(prefix);
    for (const [at, item] of rest.entries())
      permute([...prefix, item], [...rest.slice(0, at), ...rest.slice(at + 1)]);
  };
  permute([], identity);
  return out;
}

/**
 * Records `${m[@]}` and `${!m[@]}` again from the keys and the elements' possible values: every
 * combination of values in every order tried; more than {@link MAX_VALUES} overflow (asked).
 */
function rebuild(facts: LineFacts, name: string): void {
  const keys = knownKeys(facts, name);
  if (!keys) {
    facts.variables.set(allKey(name), [RUN_TIME]);
    facts.variables.set(allKey(keysName(name)), [RUN_TIME]);
    return;
  }
  if (keys.length > MAX_VALUES) {
    // More keys than are followed: the line is asked, and the keys are no longer kept.
    facts.overflow = true;
    setKeys(facts, name, undefined);
    facts.variables.set(allKey(name), [RUN_TIME]);
    facts.variables.set(allKey(keysName(name)), [RUN_TIME]);
    return;
  }
  let lists: ShellWord[][] = [[]];
  for (const key of keys) {
    const values = facts.variables.get(associativeKey(name, key)) ?? [RUN_TIME];
    lists = lists.flatMap((list) => values.map((value) => [...list, value]));
    if (lists.length > MAX_VALUES) break;
  }
  const tried = orders(keys.length);
  if (lists.length * tried.length > MAX_VALUES) {
    facts.overflow = true;
    lists = [];
  }
  const whole = lists.flatMap((list) =>
    tried.map((order) => joinElements(order.map((at) => list[at] as ShellWord))),
  );
  const keyWords = keys.map((key) => valueWord(key, false));
  facts.variables.set(allKey(name), whole.length > 0 ? distinct(facts, whole) : [RUN_TIME]);
  facts.variables.set(
    allKey(keysName(name)),
    lists.length > 0
      ? tried.map((order) => joinElements(order.map((at) => keyWords[at] as ShellWord)))
      : [RUN_TIME],
  );
}

/** `declare -A m`: m becomes an (empty) associative array, unless it already is one. */
export function declareAssociative(facts: LineFacts, name: string): void {
  if (isAssociative(facts, name)) return;
  // A scalar m becomes the element of key 0 (`m=x; declare -A m` holds `[0]=x`).
  const scalar = facts.variables.get(name) ?? [RUN_TIME];
  for (const key of [...facts.variables.keys()])
    if (key === name || key.startsWith(`${name}[`)) facts.variables.delete(key);
  facts.variables.set(name, scalar);
  setKeys(facts, name, ['0']);
  rebuild(facts, name);
}

/**
 * `m[KEY]=v` or `m[KEY]+=v` (values already appended), `m=v` for key 0, or an element of a
 * compound assignment; a key known only at run time (`undefined`) may replace any element, so
 * the array is no longer known.
 */
export function setAssociative(
  facts: LineFacts,
  name: string,
  key: string | undefined,
  values: readonly ShellWord[],
): void {
  if (put(facts, name, key, values)) rebuild(facts, name);
}

/** Sets one element without recording the whole again; false when the array was forgotten. */
function put(facts: LineFacts, name: string, key: string | undefined, values: readonly ShellWord[]): boolean {
  if (key === undefined || key === '' || key === '@' || key === '*') {
    forgetElements(facts, name);
    return false;
  }
  facts.variables.set(associativeKey(name, key), values);
  const keys = knownKeys(facts, name);
  if (keys && !keys.includes(key)) setKeys(facts, name, [...keys, key]);
  return true;
}

/** The array's elements are known no more; it stays associative. */
export function forgetElements(facts: LineFacts, name: string): void {
  for (const key of [...facts.variables.keys()])
    if (key === name || (key.startsWith(`${name}[`) && key !== markerKey(name))) facts.variables.delete(key);
  setKeys(facts, name, undefined);
  rebuild(facts, name);
}

/** `m=(...)` or `m+=(...)`: the entries in order, or undefined when they are not known. */
export function assignAssociative(
  facts: LineFacts,
  name: string,
  entries: readonly { readonly key: string | undefined; readonly values: readonly ShellWord[] }[] | undefined,
  append: boolean,
): void {
  if (!append) {
    for (const key of [...facts.variables.keys()])
      if (key === name || (key.startsWith(`${name}[`) && key !== markerKey(name)))
        facts.variables.delete(key);
    setKeys(facts, name, []);
  }
  if (!entries || entries.length > MAX_VALUES) {
    if (entries) facts.overflow = true;
    forgetElements(facts, name);
    return;
  }
  for (const { key, values } of entries) if (!put(facts, name, key, values)) return;
  rebuild(facts, name);
}

/** `unset 'm[k]'`: key k is removed (its element reads as empty); a computed key changes nothing. */
export function removeAssociative(facts: LineFacts, name: string, key: string): void {
  const keys = knownKeys(facts, name);
  facts.variables.delete(associativeKey(name, key));
  if (keys)
    setKeys(
      facts,
      name,
      keys.filter((known) => known !== key),
    );
  else facts.variables.set(associativeKey(name, key), [valueWord('', false)]);
  rebuild(facts, name);
}
