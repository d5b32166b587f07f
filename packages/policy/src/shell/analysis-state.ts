import type { Node, Parser } from 'web-tree-sitter';
import type { Finding, FindingCategory, SimpleCommand } from './command-line-analysis.js';
import type { LineFacts } from './facts/line-facts.js';
import type { ProtectedPaths } from './file-writes/protected-paths.js';
import type { Scope } from './scope.js';

/** Maximum nesting of `bash -c`, `eval` and friends that is followed before giving up. */
export const MAX_NESTING = 6;

/**
 * Maximum depth of syntax nodes walked (subshells in subshells, substitutions in
 * substitutions...). Deeper parts are not analyzed and make the line asked: a bound on the
 * stack one command line can use.
 */
export const MAX_TREE_DEPTH = 200;

/**
 * How code nested in the line is analyzed: the statement walker and the script parser. The
 * statement handlers and command analysers that meet nested code (a function body, `bash -c`,
 * `find -exec`, a heredoc's `$(...)`) call it through {@link AnalysisState.nested} rather than
 * importing the walker, which imports them.
 */
export interface NestedAnalyzer {
  /** Walks one syntax node of a parsed script in a scope (a statement, a function body). */
  readonly walk: (state: AnalysisState, scope: Scope, node: Node) => void;
  /**
   * Parses and walks a script nested in the line (`bash -c '...'`, `eval ...`, an alias body),
   * within {@link MAX_NESTING}; `text` is the source text findings about it name.
   */
  readonly analyzeScript: (state: AnalysisState, scope: Scope, script: string, text: string) => void;
}

/** Shared state of one analysis: what was found so far. */
export interface AnalysisState {
  readonly parser: Parser;
  /** The walker and the parser of nested scripts this analysis runs with. */
  readonly nested: NestedAnalyzer;
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
  /** The paths no command writes without asking. */
  readonly protectedPaths: ProtectedPaths;
  /**
   * Script files the line runs (`sh s.sh`, `./s.sh`, `source s.sh`), placed where they run, for
   * the check that a file written after one runs (in a loop) was not missed.
   */
  readonly scriptRuns: ScriptRun[];
  /** Texts of written scripts read as commands so far (bounded by `MAX_SCRIPT_READS`). */
  scriptReads: number;
}

/** A script file the line runs, by the paths it may be at. */
export interface ScriptRun {
  readonly paths: readonly string[];
  /** Whether the line had written one of those paths by then. */
  readonly written: boolean;
  readonly text: string;
}

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
