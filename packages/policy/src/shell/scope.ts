import { DECODERS, FETCHERS } from './commands/program-kinds.js';
import type { ShellWord } from './words/shell-word.js';

/** Distinct ordinary command names kept as the input of a pipeline stage (downloaders and decoders always are). */
const MAX_SOURCES = 32;

/** Where in the line a node sits: what feeds its input, which wrappers and function enclose it. */
export interface Scope {
  readonly depth: number;
  readonly via: readonly string[];
  readonly elevated: boolean;
  readonly stdinFrom: readonly string[];
  /** Function whose body this is, for detecting self-recursion (fork bombs). */
  readonly inFunction?: string;
  /**
   * What standard input holds when it is known (a literal `echo`/`printf` before in a pipeline,
   * a herestring): one value per possible text. Valid only while `stdinFrom` is `from` (any
   * other input replaces the array).
   */
  readonly stdinText?: { readonly from: readonly string[]; readonly values: readonly ShellWord[] };
}

/** The known texts of standard input in a scope, if any ({@link Scope.stdinText}). */
export function knownInput(scope: Scope): readonly ShellWord[] | undefined {
  return scope.stdinText?.from === scope.stdinFrom ? scope.stdinText.values : undefined;
}

/** The scope of a top-level command line. */
export const ROOT_SCOPE: Scope = { depth: 0, via: [], elevated: false, stdinFrom: [] };

/**
 * The input sources of a command fed by `sources` and then by `names`, without repeats. Only
 * the kind of source matters to the rules (a downloader, a decoder, anything else), so past
 * {@link MAX_SOURCES} distinct names only downloaders and decoders are added: a pipeline of
 * thousands of stages costs linear time.
 */
export function addSources(sources: readonly string[], names: readonly string[]): string[] {
  const out = [...sources];
  for (const name of names) {
    if (out.includes(name)) continue;
    if (out.length < MAX_SOURCES || FETCHERS.has(name) || DECODERS.has(name)) out.push(name);
  }
  return out;
}
