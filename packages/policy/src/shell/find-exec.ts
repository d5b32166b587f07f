import { type AnalysisState, type Scope, notUnderstood } from './context.js';
import { type NestedAnalyzer, runCommand } from './run-command.js';
import { findRoots, markRunTimeName } from './run-time-names.js';
import type { ShellWord } from './shell-word.js';

const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * `find ... -exec CMD ... ;` (and `-execdir`, `-ok`, `-okdir`): each command runs with more
 * arguments at run time, `{}` being a file under find's starting points.
 */
export function runFindExec(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  text: string,
  nested: NestedAnalyzer,
): void {
  const roots = findRoots(args);
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic || !EXEC_ACTIONS.has(word.text)) continue;
    const inner: ShellWord[] = [];
    let end = index + 1;
    while (end < args.length) {
      const part = args[end] as ShellWord;
      if (!part.dynamic && (part.text === ';' || part.text === '+')) break;
      inner.push(part.text.includes('{}') ? markRunTimeName(part, '{}', roots) : part);
      end++;
    }
    if (inner.length === 0) notUnderstood(state, `find ${word.text} without a command`, text);
    else
      runCommand(
        state,
        { ...scope, via: [...scope.via, `find ${word.text}`] },
        inner,
        text,
        nested,
        inner,
        true,
      );
    index = end;
  }
}
