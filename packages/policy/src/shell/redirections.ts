import type { Node } from 'web-tree-sitter';
import { type AnalysisState, type Scope, addSources, notUnderstood, report } from './context.js';
import { analyzeHeredocBody } from './heredoc-body.js';
import { throughLinks } from './links.js';
import { childrenOf, namedChildrenOf } from './parser.js';
import { resolve, walk } from './walk.js';
import { inDirectory } from './working-directory.js';
import { judgeWrittenFile } from './written-files.js';

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
      bodyScope = { ...bodyScope, stdinFrom: [...bodyScope.stdinFrom, '<<heredoc'] };
    else if (redirect.type === 'file_redirect') {
      let operator = '';
      for (const child of childrenOf(redirect)) if (child && !child.isNamed) operator += child.text;
      // `< /dev/null` gives no input at all.
      const from = redirect.childForFieldName('destination')?.text;
      if (operator === '<' && from !== '/dev/null')
        bodyScope = { ...bodyScope, stdinFrom: [...bodyScope.stdinFrom, '<file'] };
    }
  }
  const before = state.commands.length;
  if (body) walk(state, bodyScope, body);
  const bodyNames = state.commands.slice(before).map((command) => command.name);
  for (const redirect of redirects) {
    if (redirect.type === 'heredoc_redirect') {
      // A heredoc may carry the rest of a pipeline (`cat <<EOF | sh`); its body is text, not commands.
      for (const child of namedChildrenOf(redirect)) {
        if (!child) continue;
        if (child.type === 'heredoc_body') analyzeHeredocBody(state, scope, redirect, child);
        else if (child.type.startsWith('heredoc_')) continue;
        else if (child.type.endsWith('_redirect')) handleRedirect(state, scope, child);
        else walk(state, { ...scope, stdinFrom: addSources(scope.stdinFrom, bodyNames) }, child);
      }
    } else handleRedirect(state, scope, redirect);
  }
}
