import type { Node } from 'web-tree-sitter';
import type { AnalysisState } from '../analysis-state.js';
import type { Scope } from '../scope.js';
import { resolveWord } from '../words/resolve-word.js';
import type { ShellWord } from '../words/shell-word.js';
import { valuesOf, withReadings } from '../words/word-readings.js';

/** The scope of a command fed by a herestring: its text (and a newline) is standard input. */
export function herestringScope(state: AnalysisState, scope: Scope, herestring: Node): Scope {
  const from = [...scope.stdinFrom, '<<<'];
  const body = herestring.namedChild(0);
  if (!body) return { ...scope, stdinFrom: from };
  const values = valuesOf(state.facts, withReadings(state.facts, resolveWord(body))).map((value) =>
    value.dynamic ? value : { ...value, text: `${value.text}\n` },
  );
  return { ...scope, stdinFrom: from, stdinText: { from, values } };
}

/** A scope whose standard input is one more source, with its known texts when they are known. */
export function withInput(scope: Scope, source: string, values: readonly ShellWord[] | undefined): Scope {
  const from = [...scope.stdinFrom, source];
  return values ? { ...scope, stdinFrom: from, stdinText: { from, values } } : { ...scope, stdinFrom: from };
}
