import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { inOptionCluster, parseOptions } from '../commands/option-parsing.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { STDIN_FILE, describeSources, judgeCodeFromInput, sourcesOf } from './code-from-input.js';

/** PowerShell parameters that run inline code, by any unique prefix (`-c`, `-enc`, `-ec`, `-cwa`). */
const POWERSHELL_INLINE = ['command', 'encodedcommand', 'commandwithargs'];

/**
 * Whether an argument is a flag that runs inline code: `-c`, `-c'code'`, `--eval=code`, and for
 * POSIX-style interpreters a flag cluster containing it (`python3 -Ic`, `perl -ne`).
 */
function isInlineFlag(name: string, inlineFlags: readonly string[], arg: string): boolean {
  if (name === 'pwsh' || name === 'powershell') {
    const option = /^[-/]([a-zA-Z]+)$/.exec(arg)?.[1]?.toLowerCase();
    return (
      option !== undefined &&
      (option === 'ec' || option === 'cwa' || POWERSHELL_INLINE.some((full) => full.startsWith(option)))
    );
  }
  return inlineFlags.some((flag) => {
    if (arg === flag || arg.startsWith(`${flag}=`)) return true;
    if (!/^-[a-zA-Z]$/.test(flag)) return arg.startsWith(flag) && flag.length === 2;
    return inOptionCluster(arg, flag[1] as string);
  });
}

/**
 * An interpreter (`python3`, `node`, `perl`...): inline code is not analyzed (asked), and a
 * program read from standard input or a substitution is judged by what produced it.
 */
export function runInterpreter(
  state: AnalysisState,
  scope: Scope,
  name: string,
  inlineFlags: readonly string[],
  args: readonly ShellWord[],
  text: string,
): void {
  for (const word of args) {
    if (word.dynamic) {
      const sources = sourcesOf(state, word);
      if (describeSources(sources) !== 'none') judgeCodeFromInput(state, sources, name, text);
    }
  }
  const texts = args.map((word) => word.text);
  if (texts.some((arg) => isInlineFlag(name, inlineFlags, arg)))
    notUnderstood(state, `${name} runs inline code that is not analyzed`, text);
  const operands = parseOptions(texts).operands;
  if (operands.length === 0 || operands[0] === '-' || STDIN_FILE.test(operands[0] as string)) {
    if (scope.stdinFrom.length > 0) judgeCodeFromInput(state, scope.stdinFrom, name, text);
  }
}
