import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import { DECODERS, FETCHERS } from '../commands/program-kinds.js';
import type { ShellWord } from '../words/shell-word.js';

/** File names that are the standard input (`bash /dev/stdin` reads its program from a pipe). */
export const STDIN_FILE = /^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** What produced a program's text: a downloader, a decoder, some other command, or nothing. */
export function describeSources(sources: readonly string[]): 'fetch' | 'decode' | 'other' | 'none' {
  if (sources.length === 0) return 'none';
  if (sources.some((name) => FETCHERS.has(name))) return 'fetch';
  if (sources.some((name) => DECODERS.has(name))) return 'decode';
  return 'other';
}

/** Judges a shell or interpreter that reads its program from standard input or a substitution. */
export function judgeCodeFromInput(
  state: AnalysisState,
  sources: readonly string[],
  program: string,
  text: string,
): void {
  switch (describeSources(sources)) {
    case 'fetch':
      report(state, 'deny', 'remote-code-execution', `downloaded text is run by ${program}`, text);
      return;
    case 'decode':
      report(state, 'deny', 'eval-injection', `decoded text is run by ${program}`, text);
      return;
    case 'other':
      notUnderstood(
        state,
        sources.includes('<<heredoc')
          ? `the heredoc run by ${program} is not analyzed`
          : `text produced at run time is run by ${program}`,
        text,
      );
      return;
    default:
  }
}

/** Names of the commands inside a word's substitutions (analyzed by the walker beforehand). */
export function sourcesOf(state: AnalysisState, word: ShellWord): string[] {
  const names: string[] = [];
  for (const substitution of word.substitutions)
    names.push(...(state.substitutionNames.get(substitution.id) ?? []));
  return names;
}

/**
 * Judges a program (`bash -c "$X"`, `source "$F"`) whose text or file is a word computed at run
 * time: by the commands that produce it, or as not understood (`unknownReason`) when none do.
 */
export function judgeComputedCode(
  state: AnalysisState,
  word: ShellWord,
  program: string,
  text: string,
  unknownReason: string,
): void {
  const sources = sourcesOf(state, word);
  judgeCodeFromInput(state, sources, program, text);
  if (describeSources(sources) === 'none') notUnderstood(state, unknownReason, text);
}
