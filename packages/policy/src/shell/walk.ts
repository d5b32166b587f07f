import type { Node } from 'web-tree-sitter';
import { assign, walkDeclaration } from './assignment-statements.js';
import { handleCommand } from './command-nodes.js';
import { type AnalysisState, MAX_TREE_DEPTH, type Scope, notUnderstood } from './context.js';
import { handleFor, handleFunction, handleList, handlePipeline } from './control-flow.js';
import { inChild, maybe } from './facts.js';
import { MAX_BRACE_DEPTH, MAX_BRACE_WORDS, braceExpansion } from './braces.js';
import { withReadings } from './readings.js';
import { namedChildrenOf } from './parser.js';
import { handleRedirectedStatement } from './redirections.js';
import type { ShellWord } from './shell-word.js';
import { resolveWord } from './words.js';
import { forgetArithmeticAssignments, judgeArithmeticCode } from './arithmetic-effects.js';

/** Node types that only group statements; their children are walked. */
const CONTAINERS = new Set([
  'program',
  'compound_statement',
  'subshell',
  'do_group',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'case_statement',
  'case_item',
  'negated_command',
  'test_command',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'arithmetic_expansion',
  'c_style_for_statement',
  'for_statement',
  'subscript',
]);

/** Statements whose arithmetic is searched for assignments after they are walked. */
const ARITHMETIC_STATEMENTS = new Set([
  'command',
  'compound_statement',
  'variable_assignment',
  'declaration_command',
  'unset_command',
  'test_command',
]);

/** Word-like nodes: resolved as words so their substitutions are analyzed. */
const WORDS = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'number',
  'variable_name',
  'test_operator',
  'regex',
  'extglob_pattern',
  'brace_expression',
  'string_content',
]);

function analyzeSubstitutions(state: AnalysisState, scope: Scope, word: ShellWord): void {
  for (const substitution of word.substitutions) {
    const before = state.commands.length;
    // `>(cmd)` reads the outer command's output: treat it as fed by a pipe.
    const feedsInput = substitution.type === 'process_substitution' && substitution.text.startsWith('>(');
    inChild(
      state.facts,
      () =>
        walkChildren(
          state,
          { ...scope, stdinFrom: feedsInput ? [...scope.stdinFrom, '>(...)'] : [] },
          substitution,
        ),
      'subshell',
    );
    state.substitutionNames.set(
      substitution.id,
      state.commands.slice(before).map((command) => command.name),
    );
  }
}

/** Resolves a word node: its substitutions are analyzed, its readings with the line's values added. */
export function resolve(state: AnalysisState, scope: Scope, node: Node): ShellWord {
  const word = resolveWord(node);
  if (word.incomplete) notUnderstood(state, 'a word is nested too deeply to analyze', node.text);
  analyzeSubstitutions(state, scope, word);
  return withReadings(state.facts, word);
}

/**
 * A word node where bash expands braces (a command's words, a `for` list): the words it becomes,
 * each resolved; its substitutions are analyzed once. Past {@link MAX_BRACE_WORDS} words the
 * line is asked and the word kept whole.
 */
export function resolveFields(state: AnalysisState, scope: Scope, node: Node): ShellWord[] {
  const expanded = braceExpansion(node);
  const whole = resolve(state, scope, node);
  if (expanded === undefined) return [whole];
  if (expanded === 'overflow') {
    notUnderstood(
      state,
      `a brace expansion gives more than ${MAX_BRACE_WORDS} words or nests deeper than ${MAX_BRACE_DEPTH} levels`,
      node.text,
    );
    return [whole];
  }
  return expanded.map((word) => withReadings(state.facts, word));
}

/** Walks every named child of a node. */
export function walkChildren(state: AnalysisState, scope: Scope, node: Node): void {
  for (const child of namedChildrenOf(node)) if (child) walk(state, scope, child);
}

/** Walks one syntax node, within {@link MAX_TREE_DEPTH}. */
export function walk(state: AnalysisState, scope: Scope, node: Node): void {
  if (state.treeDepth >= MAX_TREE_DEPTH) {
    notUnderstood(state, `the command line nests deeper than ${MAX_TREE_DEPTH} levels`, node.text);
    return;
  }
  state.treeDepth++;
  walkNode(state, scope, node);
  // `((i++))`, `: $((i+=1))`, `tee ${A[i++]}`: what the arithmetic assigned is unknown after it.
  if (ARITHMETIC_STATEMENTS.has(node.type)) forgetArithmeticAssignments(state.facts, node);
  if (state.facts.arithmeticCode.length > 0) judgeArithmeticCode(state, scope);
  state.treeDepth--;
}

function walkNode(state: AnalysisState, scope: Scope, node: Node): void {
  if (node.isError || node.isMissing) {
    notUnderstood(state, 'the command line does not parse', node.text);
    walkChildren(state, scope, node);
    return;
  }
  switch (node.type) {
    case 'command':
      handleCommand(state, scope, node);
      return;
    case 'pipeline':
      handlePipeline(state, scope, node);
      return;
    case 'list':
      handleList(state, scope, node);
      return;
    case 'redirected_statement':
      handleRedirectedStatement(state, scope, node);
      return;
    case 'function_definition':
      handleFunction(state, scope, node);
      return;
    case 'subshell':
      inChild(state.facts, () => walkChildren(state, scope, node), 'subshell');
      return;
    case 'for_statement':
      handleFor(state, scope, node);
      return;
    case 'if_statement':
    case 'case_statement':
    case 'while_statement':
      maybe(state.facts, () => walkChildren(state, scope, node));
      return;
    case 'c_style_for_statement':
      // The body runs after the header's updates: what they assign is unknown there.
      maybe(state.facts, () => {
        for (const child of namedChildrenOf(node)) {
          if (child.type === 'do_group' || child.type === 'compound_statement')
            forgetArithmeticAssignments(state.facts, node);
          walk(state, scope, child);
        }
      });
      return;
    case 'variable_assignment':
      assign(state, scope, node, node.text);
      return;
    case 'variable_assignments':
      walkChildren(state, scope, node);
      return;
    case 'declaration_command':
    case 'unset_command':
      walkDeclaration(state, scope, node);
      return;
    case 'command_substitution':
    case 'process_substitution':
      analyzeSubstitutions(state, scope, { text: '', dynamic: true, glob: false, substitutions: [node] });
      return;
    case 'comment':
    case 'heredoc_body':
    case 'heredoc_start':
    case 'heredoc_end':
      return;
    default:
      if (WORDS.has(node.type)) {
        resolve(state, scope, node);
        return;
      }
      if (!CONTAINERS.has(node.type)) notUnderstood(state, `${node.type} is not analyzed`, node.text);
      walkChildren(state, scope, node);
  }
}
