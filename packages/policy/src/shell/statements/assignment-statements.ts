import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { inOptionCluster } from '../commands/option-parsing.js';
import { DANGEROUS_VARIABLE } from '../commands/program-kinds.js';
import { assignArray } from '../facts/array-assignments.js';
import { declareAssociative } from '../facts/associative-arrays.js';
import { MAX_VARIABLES } from '../facts/line-facts.js';
import { assignKeyed, unsetElement } from '../facts/subscript-assignments.js';
import { assignVariable, forgetVariable, queueArithmeticCode } from '../facts/variables.js';
import { childrenOf, namedChildrenOf } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';
import { resolveWord } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';
import { valuesOf, withReadings } from '../words/word-readings.js';
import { resolve } from './statement-words.js';

/** A variable assignment the following commands see: `NAME=value`, `NAME+=value`. */
export interface Assignment {
  readonly name: string;
  readonly values: readonly ShellWord[];
}

/**
 * Checks an assignment (its substitutions run, some variables change what runs) and returns
 * what it assigns for the command; an array element (`a[0]=x`) or an array (`a=(x y)`) is
 * recorded at once (`a=(x) cmd` is not a prefix bash takes).
 */
export function checkAssignment(
  state: AnalysisState,
  scope: Scope,
  node: Node,
  text: string,
): Assignment | undefined {
  const target = node.childForFieldName('name');
  // `arr[$(cmd)]=1` runs cmd; `PATH[0]=...` assigns PATH.
  const subscript = target?.type === 'subscript' ? target : undefined;
  const index = subscript?.childForFieldName('index');
  if (index) state.nested.walk(state, scope, index);
  // Through a nameref (`declare -n r=A; r[1]=x`), the variable it names is assigned.
  const name = state.facts.variables.resolveName(
    (subscript ? subscript.childForFieldName('name')?.text : target?.text) ?? '',
  );
  const value = node.childForFieldName('value');
  const word = value ? resolve(state, scope, value) : undefined;
  if (DANGEROUS_VARIABLE.test(name))
    notUnderstood(state, `setting ${name} changes what later commands run`, text);
  const append = childrenOf(node).some((child) => child && !child.isNamed && child.text === '+=');
  // `declare -ai A; A[0]=...`: an integer array's elements are arithmetic too.
  if ((subscript || value?.type === 'array') && state.facts.integers.has(name))
    queueArithmeticCode(
      state.facts,
      value?.type === 'array'
        ? namedChildrenOf(value).flatMap((element) => valuesOf(state.facts, resolveWord(element)))
        : valuesOf(state.facts, word),
    );
  if (subscript) {
    assignSubscript(state, name, index, valuesOf(state.facts, word), append);
    return undefined;
  }
  if (value?.type === 'array') {
    assignArray(state.facts, name, value, append);
    return undefined;
  }
  const values = valuesOf(state.facts, word);
  if (!append) return { name, values };
  assignVariable(state.facts, name, values, true);
  return { name, values: state.facts.variables.get(name) ?? values };
}

/**
 * `A[3]=x`, `m[key]=x` (an associative array's key is text, an indexed array's an arithmetic
 * index, followed when it is a literal number), with `+=` appending to the element's value.
 */
function assignSubscript(
  state: AnalysisState,
  name: string,
  index: Node | null | undefined,
  values: readonly ShellWord[],
  append: boolean,
): void {
  const facts = state.facts;
  const keys = index ? valuesOf(facts, withReadings(facts, resolveWord(index))) : [];
  const key = keys.length === 1 && !keys[0]?.dynamic ? keys[0]?.text : undefined;
  assignKeyed(facts, name, key, values, append);
}

/** Checks an assignment that stays for the rest of the line (`NAME=value;`, `export NAME=value`). */
export function assign(state: AnalysisState, scope: Scope, node: Node, text: string): void {
  const assignment = checkAssignment(state, scope, node, text);
  if (assignment) assignVariable(state.facts, assignment.name, assignment.values);
}

/**
 * `declare -n NAME=TARGET` (also `local -n`, `typeset -n`): NAME names TARGET, a variable, an
 * array or an element (`'m[k]'`), from now on; a target known only at run time makes NAME unknown.
 */
function aliasVariable(state: AnalysisState, scope: Scope, node: Node, text: string): void {
  const assignment = checkAssignment(state, scope, node, text);
  if (!assignment) return;
  if (state.facts.variables.size >= MAX_VARIABLES) {
    state.facts.overflow = true;
    return;
  }
  const target = assignment.values.length === 1 ? assignment.values[0] : undefined;
  const named = target && !target.dynamic && /^[A-Za-z_][A-Za-z0-9_]*(\[.+\])?$/s.test(target.text);
  state.facts.variables.setNameref(assignment.name, named ? target.text : undefined);
}

/**
 * `export`, `declare`, `local`, `readonly`, `typeset` and `unset`: the names they set, make
 * local to a function, alias (`declare -n`) or forget.
 */
export function walkDeclaration(state: AnalysisState, scope: Scope, node: Node): void {
  // In a function, `local` and `declare` (without -g) make names that vanish at its return.
  const keyword = node.child(0)?.text ?? '';
  const local =
    state.facts.locals &&
    (keyword === 'local' ||
      ((keyword === 'declare' || keyword === 'typeset') &&
        !namedChildrenOf(node).some((child) => child && inOptionCluster(child.text, 'g'))));
  // `declare -A m`, `local -A m=(...)`: m is an associative array (a local one starts empty).
  const associative =
    keyword !== 'export' &&
    namedChildrenOf(node).some((child) => child?.type === 'word' && inOptionCluster(child.text, 'A'));
  for (const child of namedChildrenOf(node)) {
    if (!child) continue;
    const name =
      (child.type === 'variable_assignment' ? child.childForFieldName('name')?.text : child.text) ?? '';
    if (local) state.facts.locals?.add(name);
    if (!associative || (child.type !== 'variable_assignment' && child.type !== 'variable_name')) continue;
    if (local) forgetVariable(state.facts, name);
    // bash refuses to turn an indexed array into an associative one.
    if (!state.facts.variables.has(`${name}[@]`)) declareAssociative(state.facts, name);
  }
  // `declare -i n`, `local -ai A`: what is assigned to them from now on is arithmetic.
  if (
    keyword !== 'export' &&
    namedChildrenOf(node).some((child) => child && inOptionCluster(child.text, 'i'))
  ) {
    const names = namedChildrenOf(node).flatMap((child) =>
      child?.type === 'variable_assignment' || child?.type === 'variable_name'
        ? [state.facts.variables.resolveName(variableOf(child))]
        : [],
    );
    state.facts.integers = new Set([...state.facts.integers, ...names]);
  }
  // `declare -n R=OUT`: R names OUT (its values now are followed, not later changes).
  const nameref = namedChildrenOf(node).some(
    (child) => child?.type === 'word' && inOptionCluster(child.text, 'n'),
  );
  for (const child of namedChildrenOf(node)) {
    if (!child) continue;
    if (child.type === 'variable_assignment' && nameref) aliasVariable(state, scope, child, node.text);
    else if (child.type === 'variable_assignment') assign(state, scope, child, node.text);
    else if (child.type === 'variable_name' && nameref && node.type === 'declaration_command')
      state.facts.variables.declareNameref(child.text);
    else if (node.type === 'unset_command' && child.type === 'variable_name')
      forgetVariable(state.facts, child.text);
    else if (node.type === 'unset_command') unsetWord(state, scope, child);
    else if (
      child.type === 'variable_name' &&
      DANGEROUS_VARIABLE.test(child.text) &&
      node.type === 'declaration_command'
    )
      notUnderstood(state, `changing ${child.text} changes what later commands run`, node.text);
    else resolve(state, scope, child);
  }
}

/** A word of `unset`: when it names one element (`'A[1]'`, `"m[k]"`), that element is unset. */
function unsetWord(state: AnalysisState, scope: Scope, child: Node): void {
  const values = valuesOf(state.facts, resolve(state, scope, child));
  const text = values.length === 1 && !values[0]?.dynamic ? (values[0]?.text ?? '') : '';
  const element = /^([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]$/s.exec(text);
  if (element) unsetElement(state.facts, element[1] as string, element[2] as string);
}

/** The variable a declaration's word names: `n` of `n=1` and of `n`. */
function variableOf(child: Node): string {
  const text =
    (child.type === 'variable_assignment' ? child.childForFieldName('name')?.text : child.text) ?? '';
  return text.replace(/\[.*$/s, '');
}
