import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { maybe } from '../facts/children-and-branches.js';
import { heredocText, processSubstitutionOutputs, stageOutputs } from '../outputs/known-outputs.js';
import { childrenOf, namedChildrenOf } from '../parse/shell-parser.js';
import { adjacentNumber, descriptorsOpened } from '../paths/descriptors.js';
import { type Scope, addSources } from '../scope.js';
import { knownFileText } from '../paths/line-files.js';
import { resolveWord } from '../words/resolve-word.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';
import { outputReaders, withReadings } from '../words/word-readings.js';
import { handleCommand } from './command-statements.js';
import { analyzeHeredocBody } from './heredoc-substitutions.js';
import { herestringScope, withInput } from './input-scopes.js';
import { handleRedirect } from './redirect.js';

/** What `< FILE` feeds: `<(cmd)` that prints known words, or a file the line wrote with known text. */
function fileInput(state: AnalysisState, destination: Node): ShellWord[] | undefined {
  const outputs = processSubstitutionOutputs(destination, outputReaders(state.facts));
  if (outputs || state.facts.files.size === 0) return outputs;
  const text = knownFileText(state.facts, withReadings(state.facts, resolveWord(destination)));
  return text === undefined ? undefined : [staticWord(text)];
}

/**
 * A statement with redirections after it (`cmd < file > out`, `cat <<EOF | sh`): what feeds its
 * standard input, then its body, then each redirection and what a heredoc line carries on.
 */
export function handleRedirectedStatement(state: AnalysisState, scope: Scope, node: Node): void {
  const body = node.childForFieldName('body');
  const redirects = namedChildrenOf(node).filter((child) => child.id !== body?.id);
  let bodyScope = scope;
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect')
      bodyScope = withInput(bodyScope, '<<heredoc', heredocText(redirect));
    // `while read d; do ...; done <<< /dev/sda` (a command's own herestring is its child).
    else if (redirect.type === 'herestring_redirect' && body?.type !== 'command')
      bodyScope = herestringScope(state, bodyScope, redirect);
    else if (redirect.type === 'file_redirect') {
      let operator = '';
      for (const child of childrenOf(redirect)) if (child && !child.isNamed) operator += child.text;
      // `< /dev/null` gives no input at all.
      const destination = redirect.childForFieldName('destination');
      if (operator === '<' && destination?.text !== '/dev/null')
        bodyScope = withInput(bodyScope, '<file', destination ? fileInput(state, destination) : undefined);
    }
  }
  // `rm > log -rf /`, `tee <<EOF /dev/sda`: the grammar reads words after a redirection's target
  // as more targets (or heredoc arguments); bash gives them to the command.
  const extra: Node[] = [];
  for (const redirect of redirects) {
    if (redirect.type === 'file_redirect')
      for (const target of redirect.childrenForFieldName('destination').slice(1))
        if (target) extra.push(target);
    if (redirect.type === 'heredoc_redirect')
      for (let index = 0; index < redirect.childCount; index++)
        if (redirect.fieldNameForChild(index) === 'argument') extra.push(redirect.child(index) as Node);
  }
  const before = state.commands.length;
  // The files the redirections open, on their descriptors while the body runs (`tee /dev/stdin
  // < /dev/sda`); `exec 3</dev/sda` alone keeps them open for the rest of the line.
  const opened = descriptorsOpened(state.facts, redirects);
  const outer = state.facts.descriptors;
  if (opened) state.facts.descriptors = opened;
  if (body?.type === 'command') handleCommand(state, bodyScope, body, extra);
  else {
    if (extra.length > 0) notUnderstood(state, 'words after a redirection are not analyzed', node.text);
    for (const word of extra) state.nested.walk(state, bodyScope, word);
    if (body) state.nested.walk(state, bodyScope, body);
  }
  if (opened && state.facts.descriptors === opened) state.facts.descriptors = outer;
  // The grammar hangs `3</dev/sda` on the list of `true && exec 3</dev/sda`; bash on the exec, which may run.
  const last = body?.type === 'list' ? body.namedChild(body.namedChildCount - 1) : body;
  const execAlone =
    last?.type === 'command' &&
    last.namedChild(0)?.text === 'exec' &&
    (last.namedChildCount === 1 ||
      (last.namedChildCount === 2 &&
        redirects[0] !== undefined &&
        adjacentNumber(redirects[0]) !== undefined));
  if (opened && execAlone)
    if (last === body) state.facts.descriptors = opened;
    else
      maybe(state.facts, () => {
        state.facts.descriptors = opened;
      });
  const bodyNames = state.commands.slice(before).map((command) => command.name);
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect') {
      // A heredoc may carry the rest of a pipeline (`cat <<EOF | sh`); its body is text, not commands.
      for (let index = 0; index < redirect.childCount; index++) {
        const child = redirect.child(index);
        if (!child?.isNamed || redirect.fieldNameForChild(index) === 'argument') continue;
        if (child.type === 'heredoc_body') analyzeHeredocBody(state, scope, redirect, child);
        else if (child.type.startsWith('heredoc_')) continue;
        else if (child.type.endsWith('_redirect')) handleRedirect(state, scope, child);
        else {
          // `cat <<'EOF' | sh`: what the statement prints with its heredoc, when it is known.
          const from = addSources(scope.stdinFrom, bodyNames);
          const text = body
            ? stageOutputs(body, heredocText(redirect), outputReaders(state.facts))
            : undefined;
          state.nested.walk(
            state,
            { ...scope, stdinFrom: from, ...(text ? { stdinText: { from, values: text } } : {}) },
            child,
          );
        }
      }
    } else handleRedirect(state, scope, redirect);
  }
}
