import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import { judgeWrittenFile } from '../file-writes/written-files.js';
import { heredocText, knownOutputs, stageOutputs } from '../outputs/known-outputs.js';
import { childrenOf, namedChildrenOf } from '../parse/shell-parser.js';
import { recordFileWrite } from '../paths/line-files.js';
import { throughLinks } from '../paths/links.js';
import { inDirectory } from '../paths/paths.js';
import type { Scope } from '../scope.js';
import { outputReaders } from '../words/word-readings.js';
import { resolve } from './statement-words.js';

/** Outputs that write no file worth recording (`2>&1`, `> /dev/null`). */
const QUIET_OUTPUTS = /^(\/dev\/(null|stdout|stderr|fd\/[0-9]+)|[0-9]+|-)$/;

/**
 * What an output redirection writes when the line shows it: the known output of the statement
 * it belongs to (`echo 'ls' > s.sh`, `printf ... > f`, `cat > f <<'EOF'`); undefined otherwise.
 */
function writtenText(state: AnalysisState, redirect: Node): string | undefined {
  const statement = redirect.parent;
  const descriptor = redirect.childForFieldName('descriptor');
  if (statement?.type !== 'redirected_statement' || (descriptor && descriptor.text !== '1')) return undefined;
  const body = statement.childForFieldName('body');
  if (!body) return undefined;
  const heredoc = namedChildrenOf(statement).find((child) => child.type === 'heredoc_redirect');
  const readers = outputReaders(state.facts);
  const outputs = heredoc ? stageOutputs(body, heredocText(heredoc), readers) : knownOutputs(body, readers);
  if (!outputs || outputs.length === 0 || outputs.some((output) => output.dynamic)) return undefined;
  return outputs.map((output) => output.text).join('\n');
}

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
  recordFileWrite(state.facts, target, writtenText(state, node), operator.includes('>>'));
  // A relative path lands in the directory a `cd` earlier in the line led to, through its links.
  for (const directory of state.facts.directories) {
    const path = throughLinks(state.facts, inDirectory(directory, target));
    if (path.dynamic) state.writes.push('<computed>');
    else if (!QUIET_OUTPUTS.test(path.text)) state.writes.push(path.text);
  }
}
