import type { ShellWord } from '../words/shell-word.js';
import { elementsOf, joinElements, sparseKey } from './array-keys.js';

/**
 * The indexes of a sparse array's positions (`A=([1]=x [5]=y)` has positions 0 and 1 at indexes
 * 1 and 5), kept as the value of its marker variable ({@link sparseKey}) when every possible
 * element list has them; unknown (a run-time value) otherwise. With them, an element set or
 * unset later is put in its place, as bash does.
 */
type VariableMap = Map<string, readonly ShellWord[]>;

const word = (text: string, dynamic = false): ShellWord => ({
  text,
  dynamic,
  glob: false,
  substitutions: [],
});

/** The indexes of sparse array `name`'s positions, when they are known. */
export function sparseIndexes(variables: VariableMap, name: string): number[] | undefined {
  const marker = variables.get(sparseKey(name));
  if (marker?.length !== 1 || marker[0]?.dynamic) return undefined;
  return elementsOf(marker[0] as ShellWord).map((index) => Number(index.text));
}

/** Marks array `name` sparse, with the indexes of its positions when they are known. */
export function markSparse(
  variables: VariableMap,
  name: string,
  indexes: readonly number[] | undefined,
): void {
  variables.set(sparseKey(name), [
    indexes ? joinElements(indexes.map((index) => word(String(index)))) : word('', true),
  ]);
}

/** The indexes `0..length-1` when every list has that length, else undefined. */
export function denseIndexes(lists: readonly (readonly ShellWord[])[]): number[] | undefined {
  const length = lists[0]?.length ?? 0;
  return lists.every((list) => list.length === length)
    ? Array.from({ length }, (_, index) => index)
    : undefined;
}

/**
 * Element `index` set to each value in every list, at its place among `indexes` (replaced when
 * the array has it, inserted in order otherwise): the new lists and indexes.
 */
export function placeElement(
  lists: readonly (readonly ShellWord[])[],
  indexes: readonly number[],
  index: number,
  values: readonly ShellWord[],
): { lists: ShellWord[][]; indexes: number[] } {
  const at = indexes.indexOf(index);
  const position = at >= 0 ? at : indexes.filter((existing) => existing < index).length;
  const out: ShellWord[][] = [];
  for (const list of lists)
    for (const value of values) {
      const copy = [...list];
      copy.splice(position, at >= 0 ? 1 : 0, value);
      out.push(copy);
    }
  const next = [...indexes];
  if (at < 0) next.splice(position, 0, index);
  return { lists: out, indexes: next };
}
