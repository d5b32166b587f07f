import type { ShellWord } from '../words/shell-word.js';

/**
 * How the elements of an array set in the line are kept as one value (the values of the
 * pseudo-variable `NAME[@]`): every element preceded by a NUL character, which no shell value can
 * hold. An element known only at run time is kept as its literal start between two markers, so
 * each element keeps whether it is known when the array is expanded into words again.
 */
export const ELEMENT = '\u0000';
const UNKNOWN_START = '\u0001';
const UNKNOWN_END = '\u0002';

/** The array that holds the positional parameters (`$1` is its element 0, `"$@"` all of them). */
export const POSITIONAL = '@';

/** Elements followed one by one (`${A[3]}`); the array as a whole (`${A[@]}`) keeps them all. */
export const MAX_INDEXED = 64;

/** The variable that holds element `index` of array `name`: element 0 is the scalar `$name`. */
export function elementKey(name: string, index: number): string {
  return index === 0 ? name : `${name}[${index}]`;
}

/** The variable that holds every element of array `name` ({@link ELEMENT}). */
export const allKey = (name: string): string => `${name}[@]`;

/**
 * The marker variable of an indexed array whose positions in `name[@]` are not its indexes (a
 * sparse array: `A=([5]=x)`, `A[9]=x` past the end, `unset 'A[1]'`): its element variables are
 * then kept by index and never derived from positions again.
 */
export const sparseKey = (name: string): string => `${name}[#]`;

/**
 * The variable that holds what was assigned to array `name` at an index or key known only at run
 * time (`A[x]=v`, `m[$k]=v`): any element may hold it, so it is added to every element read.
 */
export const unplacedKey = (name: string): string => `${name}[?]`;

/** The array a variable name belongs to: `A` for `A`, `A[3]` and `A[@]`. */
export const arrayName = (key: string): string => key.replace(/\[.*$/, '');

/** The literal index of `A[3]`: a decimal number without sign or leading zero, else undefined. */
export function literalIndex(text: string): number | undefined {
  return /^(0|[1-9][0-9]{0,5})$/.test(text) ? Number(text) : undefined;
}

/**
 * The index an indexed array's subscript gives: a literal number, or a variable name (the
 * subscript is arithmetic: `A[i]` is `A[$i]`) whose one possible value is one; else undefined.
 */
export function arithmeticIndex(
  variables: ReadonlyMap<string, readonly ShellWord[]>,
  text: string,
): number | undefined {
  const literal = literalIndex(text);
  if (literal !== undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) return literal;
  const values = variables.get(text);
  return values?.length === 1 && !values[0]?.dynamic ? literalIndex(values[0]?.text ?? '') : undefined;
}

function encode(word: ShellWord): string {
  if (!word.dynamic) return word.text;
  const first = word.parts?.[0];
  return `${UNKNOWN_START}${typeof first === 'string' ? first : ''}${UNKNOWN_END}`;
}

/** One value of a whole array: its elements in order. */
export function joinElements(elements: readonly ShellWord[]): ShellWord {
  return {
    text: elements.map((element) => `${ELEMENT}${encode(element)}`).join(''),
    dynamic: false,
    glob: false,
    substitutions: [],
  };
}

/** A field of an expanded word, known unless it holds an element known only at run time. */
export function decodeField(text: string, dynamic: boolean): ShellWord {
  const start = text.indexOf(UNKNOWN_START);
  if (start < 0) return { text, dynamic, glob: false, substitutions: [] };
  const end = text.indexOf(UNKNOWN_END, start);
  const prefix = text.slice(0, end < 0 ? undefined : end).replace(UNKNOWN_START, '');
  return {
    text: text.replaceAll(UNKNOWN_START, '').replaceAll(UNKNOWN_END, ''),
    dynamic: true,
    glob: false,
    substitutions: [],
    ...(dynamic ? {} : { parts: [prefix] }),
  };
}

/** The elements one value of `NAME[@]` holds (a run-time value is one unknown element). */
export function elementsOf(value: ShellWord): ShellWord[] {
  if (value.dynamic) return [value];
  return value.text
    .split(ELEMENT)
    .slice(1)
    .map((element) => decodeField(element, false));
}

/**
 * The text `${A[@]}` or `${A[*]}` puts into a word for one value of `A[@]`: the elements
 * separated by {@link ELEMENT} (one field each) or, for `"${A[*]}"`, joined by a blank.
 */
export function expandElements(value: ShellWord, joinWithBlank: boolean): string {
  const text = value.text.slice(1);
  return joinWithBlank ? text.replaceAll(ELEMENT, ' ') : text;
}
