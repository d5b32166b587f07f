import type { Node } from 'web-tree-sitter';
import { type AnalysisState, type Scope, addSources, notUnderstood, report } from './context.js';
import { handleCommand, herestringScope } from './command-nodes.js';
import { adjacentNumber, descriptorsOpened } from './descriptors.js';
import { maybe } from './facts.js';
import { analyzeHeredocBody } from './heredoc-body.js';
import { throughLinks } from './links.js';
import { childrenOf, namedChildrenOf } from './parser.js';
import { resolve, walk } from './walk.js';
import { inDirectory } from './working-directory.js';
import { judgeWrittenFile } from './written-files.js';
import { outputReaders } from './readings.js';
import { heredocText, processSubstitutionOutputs, stageOutputs } from './known-outputs.js';
import type { ShellWord } from './shell-word.js';

/** Outputs that write no file worth recording (`2>&1`, `> /dev/null`). */
const QUIET_OUTPUTS = /^(\/dev\/(null|stdout|stderr|fd\/[0-9]+)|[0-9]+|-)$/;

/**
 * One redirection: a connection to `/dev/tcp` is a reverse shell, a written file is judged and
 * recorded in every directory the line may be in by then.
 */
export function handleRedirect(state: AnalysisState, scope: Scope, node: Node): void {
  if (node.type === 'heredoc_redirect') return; // handled with the statement it feeds
  if (node.type === 'herestring_redirect') {
    const body = node.namedChild(0);
    if (body) resolve(state, scope, body);
    return;
  }
  // The grammar does not know `<>` (open for reading and writing): it leaves an error node there.
  if (node.isError || node.hasError) notUnderstood(state, 'a redirection does not parse', node.text);
  const destination = node.childForFieldName('destination');
  let operator = '';
  for (const child of childrenOf(node))
    if (child && (!child.isNamed || child.isError) && child.id !== destination?.id) operator += child.text;
  if (!destination) return;
  const target = resolve(state, scope, destination);
  if (/\/dev\/(tcp|udp)\//.test(target.text)) {
    report(state, 'deny', 'reverse-shell', 'redirects to a /dev/tcp or /dev/udp connection', node.text);
    return;
  }
  const writes = operator.includes('>');
  if (!writes) return;
  if (judgeWrittenFile(state, target, node.text)) return;
  if (operator.includes('&') && !target.dynamic && /^[0-9-]+$/.test(target.text)) return;
  // A relative path lands in the directory a `cd` earlier in the line led to, through its links.
  for (const directory of state.facts.directories) {
    const path = throughLinks(state.facts, inDirectory(directory, target));
    if (path.dynamic) state.writes.push('<computed>');
    else if (!QUIET_OUTPUTS.test(path.text)) state.writes.push(path.text);
  }
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
        bodyScope = withInput(
          bodyScope,
          '<file',
          destination ? processSubstitutionOutputs(destination, outputReaders(state.facts)) : undefined,
        );
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
    for (const word of extra) walk(state, bodyScope, word);
    if (body) walk(state, bodyScope, body);
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
          walk(
            state,
            { ...scope, stdinFrom: from, ...(text ? { stdinText: { from, values: text } } : {}) },
            child,
          );
        }
      }
    } else handleRedirect(state, scope, redirect);
  }
}

/** A scope whose standard input is one more source, with its known texts when they are known. */
function withInput(scope: Scope, source: string, values: readonly ShellWord[] | undefined): Scope {
  const from = [...scope.stdinFrom, source];
  return values ? { ...scope, stdinFrom: from, stdinText: { from, values } } : { ...scope, stdinFrom: from };
}
