import type { Node } from 'web-tree-sitter';
import { literalIndex } from './arrays.js';
import { type SubscriptedElement, hasSubscripts, subscriptedElement } from './compound-elements.js';
import type { LineFacts } from './facts.js';
import { namedChildrenOf } from './parser.js';
import { expandedWords } from './braces.js';
import { valuesOf, withReadings } from './readings.js';
import type { ShellWord } from './shell-word.js';

/** Most elements an array followed may have; more make the line asked. */
export const MAX_ELEMENTS = 4096;

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
export function indexedEntries(facts: LineFacts, array: Node): Map<number, ShellWord[]> | undefined {
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

/**
 * The entries of `m=([k]=v ...)` for an associative array, or of `m=(k v ...)` (key, value,
 * key, value...); undefined when they are not known.
 */
export function associativeEntries(
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
