// The shell analysis of @toolplane/policy: what the rest of the package uses of it. Nothing here
// is public API by itself; `src/index.ts` re-exports the parts that are.
export type { AnalyzeOptions } from './analyze-command-line.js';
export type {
  CommandLineAnalysis,
  Finding,
  FindingCategory,
  SimpleCommand,
} from './command-line-analysis.js';
export { normalizeCommandName } from './commands/command-names.js';
export {
  DEFAULT_PROTECTED_PATHS,
  type ProtectedMatch,
  type ProtectedPaths,
  compileProtectedPaths,
} from './file-writes/protected-paths.js';
export { parseOptions } from './commands/option-parsing.js';
export { loadedShellParser } from './parse/shell-parser.js';
export { analyzeCommandLine, loadAnalysis, loadShellParser, loadedAnalysis } from './public-analysis.js';
export type { ShellWord } from './words/shell-word.js';
