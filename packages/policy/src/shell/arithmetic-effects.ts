import type { Node } from 'web-tree-sitter';
import { type LineFacts, RUN_TIME, assignVariable } from './facts.js';
import { namedChildrenOf } from './parser.js';
import { resolveWord } from './words.js';

/** Longest arithmetic text searched for assignments; a longer one makes the line asked. */
const MAX_ARITHMETIC = 4096;

/**
 * A name an arithmetic expression assigns: `i++`, `--i`, `i=1`, `i+=2`, `A[k]<<=1` (not `==`,
 * `<=`, `>=` or `!=`, which compare).
 */
const ASSIGNED =
  /([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:\[[^\]]*\])?[ \t]*(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)?=(?!=))|(?:\+\+|--)[ \t]*([A-Za-z_][A-Za-z0-9_]*)/g;

/** The names an arithmetic text assigns (array elements by their array's name). */
function assignedNames(facts: LineFacts, text: string): string[] {
  if (text.length > MAX_ARITHMETIC) {
    facts.overflow = true;
    return [];
  }
  return [...text.matchAll(ASSIGNED)].map((match) => (match[1] ?? match[2]) as string);
}

/** Whether a node is arithmetic bash evaluates: `$((...))`, `((...))`, an array subscript. */
function isArithmetic(node: Node): boolean {
  if (node.type === 'arithmetic_expansion' || node.type === 'subscript') return true;
  return node.type === 'compound_statement' && node.text.startsWith('((');
}

/** `let EXPR...`: a command whose arguments are arithmetic. */
function isLet(node: Node): boolean {
  const name = node.type === 'command' ? node.childForFieldName('name') : null;
  if (!name) return false;
  const word = resolveWord(name.namedChild(0) ?? name);
  return !word.dynamic && word.text === 'let';
}

/** The arithmetic texts in a node and below it (not inside the commands it nests). */
function arithmeticTexts(node: Node, out: string[], depth = 0): void {
  if (depth > 64) return;
  if (isArithmetic(node) || isLet(node)) {
    out.push(node.text);
    return;
  }
  for (const child of namedChildrenOf(node)) arithmeticTexts(child, out, depth + 1);
}

/**
 * What the arithmetic in a statement assigns (`((i++))`, `: $((i+=1))`, `${A[i++]}`, `let
 * i=2`): a number the analysis does not work out, so those variables are known only at run
 * time afterwards (an index read with them may be any element).
 */
export function forgetArithmeticAssignments(facts: LineFacts, node: Node): void {
  const texts: string[] = [];
  arithmeticTexts(node, texts);
  for (const text of texts)
    for (const name of assignedNames(facts, text)) assignVariable(facts, name, [RUN_TIME]);
}
