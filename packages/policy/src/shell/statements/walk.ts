import type { Node } from 'web-tree-sitter';
import { type AnalysisState, MAX_TREE_DEPTH, notUnderstood } from '../analysis-state.js';
import { inChild, maybe } from '../facts/children-and-branches.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';
import { forgetArithmeticAssignments, judgeArithmeticCode } from './arithmetic-effects.js';
import { assign, walkDeclaration } from './assignment-statements.js';
import { handleCommand } from './command-statements.js';
import { handleFor, handleFunction, handleList, handlePipeline } from './control-flow.js';
import { handleRedirectedStatement } from './redirected-statements.js';
import { analyzeSubstitutions, resolve } from './statement-words.js';

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

/** Walks every named child of a node. */
function walkChildren(state: AnalysisState, scope: Scope, node: Node): void {
  for (const child of namedChildrenOf(node)) if (child) walk(state, scope, child);
}

/**
 * Walks one syntax node, within {@link MAX_TREE_DEPTH}: each statement goes to its handler
 * (commands, pipelines and lists, redirections, functions, loops, assignments), word-like nodes
 * are resolved so their substitutions are analyzed, and what arithmetic assigned is forgotten
 * after the statement.
 */
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
