import { type AnalysisState, MAX_NESTING, notUnderstood } from '../analysis-state.js';
import { MAY_PREFIX_COMPOUND, blanked, compoundPrefixes } from '../parse/compound-prefixes.js';
import { withShellTree } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';
import { walk } from './walk.js';

/**
 * Most `|` characters a script may hold to be parsed. The grammar keeps two readings of a
 * pipeline alive after a word such as `-s` and its memory grows with the square of the
 * stages: 8,000 stages take a gigabyte and 13,000 abort the WebAssembly module for the rest
 * of the process. Real pipelines have a handful of stages.
 */
const MAX_PIPES = 1000;

/** Parses a script and walks it, unless it has too many pipes (then it is not understood). */
export function parseBounded(state: AnalysisState, scope: Scope, script: string, text: string): void {
  let pipes = 0;
  for (let at = script.indexOf('|'); at >= 0 && pipes <= MAX_PIPES; at = script.indexOf('|', at + 1)) pipes++;
  if (pipes > MAX_PIPES) {
    notUnderstood(
      state,
      `the command line has more than ${MAX_PIPES} "|" characters and is not parsed`,
      text,
    );
    return;
  }
  walkScript(state, scope, script, 0);
}

/** Most times a script is parsed again without `time`/`!` prefixes (`time ! { ...; }`). */
const MAX_REPARSES = 4;

function walkScript(state: AnalysisState, scope: Scope, script: string, reparses: number): void {
  const again = withShellTree(state.parser, script, (root) => {
    const ranges = reparses < MAX_REPARSES && MAY_PREFIX_COMPOUND.test(script) ? compoundPrefixes(root) : [];
    if (ranges.length === 0) walk(state, scope, root);
    return ranges.length > 0 ? blanked(script, ranges) : undefined;
  });
  if (again !== undefined) walkScript(state, scope, again, reparses + 1);
}

/** Parses and walks a script nested in the line (`bash -c`, `eval`, a heredoc's `$(...)`), within {@link MAX_NESTING}. */
export function analyzeNested(state: AnalysisState, scope: Scope, script: string, text: string): void {
  if (scope.depth > MAX_NESTING) {
    notUnderstood(state, 'commands nested too deeply to follow', text);
    return;
  }
  parseBounded(state, scope, script, text);
}
