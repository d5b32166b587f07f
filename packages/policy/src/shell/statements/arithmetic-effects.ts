import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { allKey } from '../facts/array-keys.js';
import { type LineFacts, RUN_TIME } from '../facts/line-facts.js';
import { assignVariable, queueArithmeticCode } from '../facts/variables.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';
import { resolveWord } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';

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

/** Operators of `[[ ... ]]` whose operands are arithmetic. */
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * Whether a node is arithmetic bash evaluates: `$((...))`, `((...))`, an array subscript, an
 * arithmetic comparison of `[[ ... ]]`.
 */
function isArithmetic(node: Node): boolean {
  if (node.type === 'arithmetic_expansion' || node.type === 'subscript') return true;
  if (node.type === 'binary_expression' && node.parent?.type === 'test_command')
    return (
      node.parent.text.startsWith('[[') &&
      namedChildrenOf(node).some(
        (child) => child.type === 'test_operator' && ARITHMETIC_TESTS.has(child.text),
      )
    );
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
function arithmeticTexts(node: Node, out: string[], depth = 0): boolean {
  if (depth > MAX_SEARCH_DEPTH) return false;
  if (isArithmetic(node) || isLet(node)) {
    // `A[X]`: the index is arithmetic, not the array's name.
    out.push(node.type === 'subscript' ? node.text.slice(node.text.indexOf('[')) : node.text);
    return true;
  }
  let complete = true;
  for (const child of namedChildrenOf(node)) complete = arithmeticTexts(child, out, depth + 1) && complete;
  return complete;
}

/**
 * Deepest syntax node searched for arithmetic below a statement; a statement nested deeper
 * (`[[ ( ( ( ... $((i++)) ... ) ) ) ]]` 70 levels down) makes the line asked, as its
 * arithmetic is not searched.
 */
const MAX_SEARCH_DEPTH = 64;

/**
 * What the arithmetic in a statement assigns (`((i++))`, `: $((i+=1))`, `${A[i++]}`, `let
 * i=2`): a number the analysis does not work out, so those variables are known only at run
 * time afterwards (an index read with them may be any element).
 */
export function forgetArithmeticAssignments(facts: LineFacts, node: Node): void {
  const texts: string[] = [];
  if (!arithmeticTexts(node, texts)) facts.overflow = true;
  for (const text of texts) {
    // A variable arithmetic reads is evaluated as an expression in turn: `X='a[$(cmd)]';
    // echo $((X))` runs cmd. Its values are queued before what the text assigns is forgotten.
    if (text.length <= MAX_ARITHMETIC) queueArithmeticCode(facts, valuesRead(facts, text));
    for (const name of assignedNames(facts, text)) assignVariable(facts, name, [RUN_TIME]);
  }
}

/** Most variables whose values are looked at for one arithmetic text (names that name names). */
const MAX_NAMES_READ = 64;

/**
 * The values of the variables an arithmetic text reads, and of the variables those values
 * name in turn (`X=Y; Y='a[$(cmd)]'; $((X))` evaluates Y's value too), within {@link MAX_NAMES_READ}.
 */
function valuesRead(facts: LineFacts, text: string): ShellWord[] {
  const names = new Set<string>();
  const values: ShellWord[] = [];
  const visit = (source: string): void => {
    for (const [name] of source.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      if (names.size >= MAX_NAMES_READ) return;
      if (names.has(name)) continue;
      names.add(name);
      for (const value of [
        ...(facts.variables.get(name) ?? []),
        ...(facts.variables.get(allKey(name)) ?? []),
      ]) {
        values.push(value);
        // A value that names another variable is short; a long one is not read for names.
        if (value.text.length <= 256) visit(value.text);
      }
    }
  };
  visit(text);
  return values;
}

/**
 * Judges the texts bash evaluates as arithmetic that hold a command substitution (queued by
 * {@link queueArithmeticCode}): the line is asked, and each text is parsed as the arithmetic it
 * is, so a deny rule inside an index (`declare -i n; n='a[$(rm -rf /)]'`) denies.
 */
export function judgeArithmeticCode(state: AnalysisState, scope: Scope): void {
  const texts = state.facts.arithmeticCode.splice(0);
  const inner: Scope = { ...scope, depth: scope.depth + 1, via: [...scope.via, 'arithmetic'] };
  for (const text of texts) {
    notUnderstood(
      state,
      'a value evaluated as arithmetic (an integer variable, or one read by arithmetic) holds a command substitution, which runs in an array index',
      text,
    );
    state.nested.analyzeScript(state, inner, `: $(( ${text} ))`, text);
  }
}
