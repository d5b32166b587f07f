import type { Node } from 'web-tree-sitter';
import { namedChildrenOf } from '../parse/shell-parser.js';
import { charactersOf, expandedWords } from '../words/brace-expansion.js';
import { type WordPiece, resolvePieces } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';
import { valuesOf, withReadings } from '../words/word-readings.js';
import { literalIndex } from './array-keys.js';
import type { LineFacts } from './line-facts.js';

/** An element of a compound assignment written with its subscript: `[KEY]=VALUE` or `[KEY]+=VALUE`. */
interface SubscriptedElement {
  readonly key: ShellWord;
  readonly value: ShellWord;
  readonly append: boolean;
}

/**
 * `[KEY]=VALUE` inside `A=(...)`: the grammar gives a concatenation of the word `[`, the key's
 * nodes, the word `]` and a word starting with `=` (or `+=`) followed by the value's nodes.
 * Undefined for an element without a subscript; 'unknown' when the shape is not this one.
 */
function subscriptedElement(node: Node): SubscriptedElement | 'unknown' | undefined {
  if (node.type !== 'concatenation') return undefined;
  const children = namedChildrenOf(node).filter((child): child is Node => child !== null);
  if (children[0]?.type !== 'word' || children[0].text !== '[') return undefined;
  const close = children.findIndex((child, at) => at > 0 && child.type === 'word' && child.text === ']');
  const equals = children[close + 1];
  if (close < 2 || equals?.type !== 'word' || !/^\+?=/.test(equals.text)) return 'unknown';
  const append = equals.text.startsWith('+');
  const pieces: WordPiece[] = [];
  charactersOf(equals.text.slice(append ? 2 : 1), true, pieces);
  pieces.push(...children.slice(close + 2));
  return { key: resolvePieces(children.slice(1, close)), value: resolvePieces(pieces), append };
}

/** Whether any element of a compound assignment's array node has a subscript. */
export function hasSubscripts(array: Node): boolean {
  return namedChildrenOf(array).some((child) => child !== null && subscriptedElement(child) !== undefined);
}

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
