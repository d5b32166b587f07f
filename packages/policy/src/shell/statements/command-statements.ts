import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { runCommand } from '../commands/run-command.js';
import { withVariables } from '../facts/variables.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';
import { resolveWord } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';
import { type Assignment, checkAssignment } from './assignment-statements.js';
import { herestringScope } from './input-scopes.js';
import { handleRedirect } from './redirect.js';
import { resolveFields } from './statement-words.js';

/**
 * A command node: its words, the assignments that prefix it, its redirections and a herestring
 * that may carry a script (`bash <<< 'cmd'`) or the line `read` splits; `extraArguments` are
 * words after a redirection of the statement, which bash gives the command.
 */
export function handleCommand(
  state: AnalysisState,
  scope: Scope,
  node: Node,
  extraArguments: readonly Node[] = [],
): void {
  const words: ShellWord[] = [];
  const assignments: Assignment[] = [];
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (!child) continue;
    const field = node.fieldNameForChild(index);
    // `tee /dev/{$D,x}`: the grammar splits at `{$` a word bash reads whole.
    if (field === 'argument' && node.child(index - 1)?.endIndex === child.startIndex)
      notUnderstood(state, 'the parser splits a word that bash reads as one', node.text);
    if (child.type === 'variable_assignment') {
      // `OUT=x cmd "$OUT"`: cmd's words still see the old value, the programs it starts the new one.
      const assignment = checkAssignment(state, scope, child, node.text);
      if (assignment) assignments.push(assignment);
    } else if (field === 'name') {
      const inner = child.namedChild(0) ?? child;
      words.push(...resolveFields(state, scope, inner));
    } else if (field === 'argument') words.push(...resolveFields(state, scope, child));
    else if (field === 'redirect' || child.type.endsWith('_redirect')) handleRedirect(state, scope, child);
    else if (child.isNamed && child.type !== 'comment') {
      notUnderstood(state, `unexpected ${child.type} in a command`, child.text);
      state.nested.walk(state, scope, child);
    }
  }
  // Words the grammar hangs on a redirection after the command (`rm > log -rf /`) are its arguments.
  for (const extra of extraArguments) words.push(...resolveFields(state, scope, extra));
  // `! ! rm -rf /`: the grammar reads the second `!` as a command name; bash negates the status
  // again and runs the command after the marks.
  const marks = namedChildrenOf(node).findIndex((child) => child.text !== '!');
  words.splice(0, marks < 0 ? words.length : marks);
  const text = extraArguments.length > 0 ? (node.parent?.text ?? node.text) : node.text;
  const herestring = namedChildrenOf(node).find((child) => child.type === 'herestring_redirect');
  const commandScope = herestring ? herestringScope(state, scope, herestring) : scope;
  withVariables(state.facts, assignments, () => {
    if (herestring) shellFromHerestring(state, commandScope, words, herestring);
    else runCommand(state, commandScope, words, text);
  });
}

/**
 * `bash <<< 'cmd'` runs the string, `at now <<< 'cmd'` runs it later: parse it when static;
 * otherwise judge the command normally.
 */
function shellFromHerestring(state: AnalysisState, scope: Scope, words: ShellWord[], redirect: Node): void {
  const head = words[0];
  const body = redirect.namedChild(0);
  const isShell = head && !head.dynamic && /(^|\/)(ba|da|z|k|mk)?sh$/.test(head.text) && words.length === 1;
  const isScheduler = head && !head.dynamic && /(^|\/)(at|batch)$/.test(head.text);
  if ((isShell || isScheduler) && body) {
    const text = resolveWord(body);
    if (!text.dynamic) {
      const bodyScope = { ...scope, stdinFrom: [] }; // the herestring replaces standard input
      state.nested.analyzeScript(
        state,
        { ...bodyScope, via: [...scope.via, `${head.text} <<<`] },
        text.text,
        redirect.text,
      );
      if (isScheduler) runCommand(state, bodyScope, words, redirect.parent?.text ?? redirect.text);
      return;
    }
  }
  runCommand(state, scope, words, redirect.parent?.text ?? redirect.text);
}
