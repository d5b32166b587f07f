import type { AnalysisState } from '../analysis-state.js';
import { inChild } from '../facts/children-and-branches.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { commandOutputs } from '../words/word-readings.js';

/**
 * What `<(cmd)` holds when it is a word's only part and cmd only prints known words (`bash
 * <(echo 'rm -rf /')`, `source <(printf ...)`); undefined otherwise.
 */
export function substitutionText(state: AnalysisState, word: ShellWord): ShellWord[] | undefined {
  const [node, ...more] = word.substitutions;
  if (!node || more.length > 0 || word.text !== '' || word.parts) return undefined;
  if (node.type !== 'process_substitution' || !node.text.startsWith('<(')) return undefined;
  const inside = node.namedChildren.filter((child) => child?.type !== 'comment');
  return inside.length === 1 && inside[0] ? commandOutputs(state.facts, inside[0]) : undefined;
}

/**
 * Parses the known texts a shell (`sh`, `bash -s`, a child: what it sets is not seen after) or
 * `source` (the same shell) reads as its program, so a deny rule inside denies; the caller has
 * already judged the command (asked: the text is still produced at run time).
 */
export function parseKnownScripts(
  state: AnalysisState,
  scope: Scope,
  program: string,
  texts: readonly ShellWord[] | undefined,
  text: string,
): void {
  if (!texts || texts.some((value) => value.dynamic)) return;
  const inner: Scope = {
    ...scope,
    depth: scope.depth + 1,
    stdinFrom: [],
    via: [...scope.via, `${program} <`],
  };
  for (const value of texts)
    if (program === 'source' || program === '.') state.nested.analyzeScript(state, inner, value.text, text);
    else inChild(state.facts, () => state.nested.analyzeScript(state, inner, value.text, text), 'shell');
}
