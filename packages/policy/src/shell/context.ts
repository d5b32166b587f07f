import type { Parser } from 'web-tree-sitter';
import type { Finding, FindingCategory, SimpleCommand } from './analysis.js';

/** Maximum nesting of `bash -c`, `eval` and friends that is followed before giving up. */
export const MAX_NESTING = 6;

/** Shared state of one analysis: what was found so far. */
export interface AnalysisState {
  readonly parser: Parser;
  readonly commands: SimpleCommand[];
  readonly findings: Finding[];
  readonly writes: string[];
  /** Functions defined anywhere in the line. */
  readonly functions: Set<string>;
  /** Command names found inside each analyzed substitution node, by node id. */
  readonly substitutionNames: Map<number, string[]>;
}

/** Where in the line a node sits: what feeds its input, which wrappers and function enclose it. */
export interface Scope {
  readonly depth: number;
  readonly via: readonly string[];
  readonly elevated: boolean;
  readonly stdinFrom: readonly string[];
  /** Function whose body this is, for detecting self-recursion (fork bombs). */
  readonly inFunction?: string;
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
