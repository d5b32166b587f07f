import type { Node } from 'web-tree-sitter';
import { charactersOf } from './braces.js';
import { namedChildrenOf } from './parser.js';
import type { ShellWord } from './shell-word.js';
import { type WordPiece, resolvePieces } from './words.js';

/** An element of a compound assignment written with its subscript: `[KEY]=VALUE` or `[KEY]+=VALUE`. */
export interface SubscriptedElement {
  readonly key: ShellWord;
  readonly value: ShellWord;
  readonly append: boolean;
}

/**
 * `[KEY]=VALUE` inside `A=(...)`: the grammar gives a concatenation of the word `[`, the key's
 * nodes, the word `]` and a word starting with `=` (or `+=`) followed by the value's nodes.
 * Undefined for an element without a subscript; 'unknown' when the shape is not this one.
 */
export function subscriptedElement(node: Node): SubscriptedElement | 'unknown' | undefined {
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
