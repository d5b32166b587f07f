import type { SimpleCommand } from '../command-line-analysis.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { normalizeCommandName } from './command-names.js';

/** The record of one simple command as the rules see it: its name, arguments, words as written and scope. */
export function makeCommand(
  name: string,
  args: readonly ShellWord[],
  written: readonly ShellWord[],
  scope: Scope,
  text: string,
  extraArgs: boolean,
): SimpleCommand {
  const normalizedWritten = written.map((word, index) =>
    index === 0 && !word.dynamic ? { ...word, text: normalizeCommandName(word.text) } : word,
  );
  return {
    name,
    args,
    written: normalizedWritten,
    via: scope.via,
    elevated: scope.elevated,
    extraArgs,
    stdinFrom: scope.stdinFrom,
    text,
  };
}
