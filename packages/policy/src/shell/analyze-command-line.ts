import type { Parser } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from './analysis-state.js';
import type { CommandLineAnalysis } from './command-line-analysis.js';
import { createFacts } from './facts/line-facts.js';
import { DEFAULT_PROTECTED, type ProtectedPaths } from './file-writes/protected-paths.js';
import { reportLateWrittenScripts } from './nested-code/line-scripts.js';
import { reportMutualRecursion } from './rules/fork-bombs.js';
import { ROOT_SCOPE } from './scope.js';
import { analyzeNested, parseBounded } from './statements/analyze-script.js';
import { walk } from './statements/walk.js';

/** Options of {@link analyzeCommandLine}. */
export interface AnalyzeOptions {
  /** Paths no command writes without asking (default: `DEFAULT_PROTECTED_PATHS`, compiled). */
  readonly protectedPaths?: ProtectedPaths;
}

/**
 * Analyzes a command line: every simple command (through pipelines, lists, subshells,
 * substitutions, functions and wrappers), the default deny rules, file writes by redirection,
 * and every construct that was not understood.
 *
 * @example
 * const parser = await loadShellParser();
 * analyzeCommandLine(parser, 'ls && rm -rf /').findings[0]?.category; // 'destructive-file-operation'
 */
export function analyzeCommandLine(
  parser: Parser,
  source: string,
  options: AnalyzeOptions = {},
): CommandLineAnalysis {
  const state: AnalysisState = {
    parser,
    nested: { walk, analyzeScript: analyzeNested },
    commands: [],
    findings: [],
    writes: [],
    functions: new Set(),
    calls: new Map(),
    substitutionNames: new Map(),
    facts: createFacts(),
    treeDepth: 0,
    replays: 0,
    protectedPaths: options.protectedPaths ?? DEFAULT_PROTECTED,
    scriptRuns: [],
    scriptReads: 0,
  };
  // No shell can receive a NUL byte (argv and `bash -c` strings end at it): what runs is unclear.
  if (source.includes('\u0000')) notUnderstood(state, 'the command line contains a NUL character', source);
  parseBounded(state, ROOT_SCOPE, source, source);
  const firstFiles = state.facts.files;
  let overflow = state.facts.overflow;
  let ambiguous = state.facts.variables.ambiguous;
  // Bash removes backslash-newline before splitting words (`r\<newline>m` is `rm`); the grammar
  // keeps them as separators. Reading the joined text too, and keeping both readings, is safe.
  const joined = source.replace(/\\\r?\n/g, '');
  if (joined !== source) {
    state.facts = createFacts();
    parseBounded(state, ROOT_SCOPE, joined, source);
    for (const [path, writes] of firstFiles)
      if (!state.facts.files.has(path)) state.facts.files.set(path, writes);
    overflow ||= state.facts.overflow;
    ambiguous ||= state.facts.variables.ambiguous;
  }
  if (ambiguous)
    notUnderstood(
      state,
      'a nameref whose target depends on a branch (declared or given its target after && or in an if) is used',
      source,
    );
  if (overflow)
    notUnderstood(state, 'more variables, values or links are made than the analysis follows', source);
  reportMutualRecursion(state, source);
  reportLateWrittenScripts(state);
  return {
    source,
    commands: state.commands,
    findings: state.findings,
    writes: state.writes,
    understood: !state.findings.some((finding) => finding.kind === 'unknown'),
  };
}
