// The command-line analysis as the package exports it. The analysis is most of this package's
// code (some eighty modules); it loads with the shell grammar, so a process that checks no
// command (an app that lists or reads files) never loads either.
import { ToolError } from '@toolplane/core';
import type { Parser } from 'web-tree-sitter';
import type { AnalyzeOptions } from './analyze-command-line.js';
import type { CommandLineAnalysis } from './command-line-analysis.js';
import { loadShellParser as loadParser } from './parse/shell-parser.js';

type AnalysisModule = typeof import('./analyze-command-line.js');

let analysis: AnalysisModule | undefined;

/** The analysis module when {@link loadAnalysis} has finished, otherwise undefined. */
export function loadedAnalysis(): AnalysisModule | undefined {
  return analysis;
}

/** The analysis module, loaded once (cached: a decision awaits no import after the first). */
export async function loadAnalysis(): Promise<AnalysisModule> {
  analysis ??= await import('./analyze-command-line.js');
  return analysis;
}

/**
 * Loads the tree-sitter bash grammar (WebAssembly) and the analysis once per process. Every
 * later call returns the same parser; parsing and {@link analyzeCommandLine} are synchronous.
 *
 * @example
 * const parser = await loadShellParser();
 */
export async function loadShellParser(): Promise<Parser> {
  const [parser] = await Promise.all([loadParser(), loadAnalysis()]);
  return parser;
}

/**
 * Analyzes a command line: every simple command (through pipelines, lists, subshells,
 * substitutions, functions and wrappers), the default deny rules, file writes by redirection,
 * and every construct that was not understood. Takes the parser of {@link loadShellParser}.
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
  if (!analysis)
    throw new ToolError(
      'INTERNAL',
      'analyzeCommandLine needs the shell analysis loaded: await loadShellParser() first and pass its parser',
    );
  return analysis.analyzeCommandLine(parser, source, options);
}
