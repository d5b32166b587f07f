import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { inChild } from '../facts/children-and-branches.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';
import { MAX_BRACE_DEPTH, MAX_BRACE_WORDS, braceExpansion } from '../words/brace-expansion.js';
import { resolveWord } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';
import { withReadings } from '../words/word-readings.js';

/**
 * Analyzes the substitutions of a word (`$(...)`, backticks, `<(...)`, `>(...)`): each is walked
 * in a child, and the names of the commands inside are kept for the rules on what produced a
 * program's text.
 */
export function analyzeSubstitutions(state: AnalysisState, scope: Scope, word: ShellWord): void {
  for (const substitution of word.substitutions) {
    const before = state.commands.length;
    // `>(cmd)` reads the outer command's output: treat it as fed by a pipe.
    const feedsInput = substitution.type === 'process_substitution' && substitution.text.startsWith('>(');
    const inner = { ...scope, stdinFrom: feedsInput ? [...scope.stdinFrom, '>(...)'] : [] };
    inChild(
      state.facts,
      () => {
        for (const child of namedChildrenOf(substitution)) state.nested.walk(state, inner, child);
      },
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
