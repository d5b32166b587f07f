import type { Parser } from 'web-tree-sitter';
import type { Finding, FindingCategory, SimpleCommand } from './analysis.js';
import type { LineFacts } from './facts.js';
import { DECODERS, FETCHERS } from './programs.js';
import type { ShellWord } from './shell-word.js';

/** Maximum nesting of `bash -c`, `eval` and friends that is followed before giving up. */
export const MAX_NESTING = 6;

/**
 * Maximum depth of syntax nodes walked (subshells in subshells, substitutions in
 * substitutions...). Deeper parts are not analyzed and make the line asked: a bound on the
 * stack one command line can use.
 */
export const MAX_TREE_DEPTH = 200;

/** Distinct ordinary command names kept as the input of a pipeline stage (downloaders and decoders always are). */
const MAX_SOURCES = 32;

/** Shared state of one analysis: what was found so far. */
export interface AnalysisState {
  readonly parser: Parser;
  readonly commands: SimpleCommand[];
  readonly findings: Finding[];
  readonly writes: string[];
  /** Functions defined anywhere in the line. */
  readonly functions: Set<string>;
  /** Names each function calls, by function (for recursion through several functions). */
  readonly calls: Map<string, Set<string>>;
  /** Command names found inside each analyzed substitution node, by node id. */
  readonly substitutionNames: Map<number, string[]>;
  /** Variables and working directories set by earlier commands of the line. */
  facts: LineFacts;
  /** Syntax nodes being walked right now, outermost included (bounded by {@link MAX_TREE_DEPTH}). */
  treeDepth: number;
  /** Function bodies walked again for a call with arguments (bounded by `MAX_REPLAYS`). */
  replays: number;
}

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

/** Records a finding. */
export function report(
  state: AnalysisState,
  kind: Finding['kind'],
  category: FindingCategory,
  reason: string,
  text: string,
): void {
  state.findings.push({ kind, category, reason, text });
}

/** Records a construct that is not understood, so the line is asked and never auto-allowed. */
export function notUnderstood(state: AnalysisState, reason: string, text: string): void {
  report(state, 'unknown', 'not-understood', reason, text);
}

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
