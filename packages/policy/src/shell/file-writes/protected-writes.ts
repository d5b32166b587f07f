import { type AnalysisState, report } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { recordFileWrite } from '../paths/line-files.js';
import { normalizePath } from '../paths/paths.js';
import { placedReadings } from '../paths/placed-readings.js';
import { type Scope, knownInput } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { modifiedFiles } from './modified-files.js';
import { writtenFiles } from './program-writes.js';

/**
 * Asks for a write to a protected path (`.git/hooks/*`, `.bashrc`, `.mcp.json`...), as written
 * and placed in every directory the line may be in, in every permission mode.
 */
export function judgeProtectedWrite(state: AnalysisState, target: ShellWord, text: string): void {
  for (const path of [target, ...(placedReadings(state.facts, target) ?? []).flat()]) {
    const found = state.protectedPaths.match(path);
    if (!found) continue;
    const name = path.dynamic
      ? `a path named at run time that ends in ${path.text}`
      : normalizePath(path.text);
    report(
      state,
      'ask',
      'protected-path-write',
      found.how === 'path'
        ? `writes ${name}, a protected path (${found.pattern}): a person approves every shell write to it`
        : `writes into ${name}, a directory that holds protected paths (${found.pattern}): a person approves it`,
      text,
    );
    return;
  }
}

/** `tee -a`, `tee --append`: adds to the files. */
const appends = (command: SimpleCommand): boolean =>
  command.args.some((word) => !word.dynamic && (/^-[a-zA-Z]*a/.test(word.text) || word.text === '--append'));

/**
 * The files a command writes or changes by its arguments: each is recorded with the text
 * written when the line shows it (`tee s.sh` of a known input), so a script the line runs after
 * is judged by it, and the ones not judged as device writes are checked against the protected
 * paths (a device write's target is judged, protected paths included, by `written-files.ts`).
 */
export function followCommandWrites(state: AnalysisState, scope: Scope, command: SimpleCommand): void {
  const outputs = writtenFiles(command);
  if (outputs.length > 0) {
    const input = command.name === 'tee' ? knownInput(scope) : undefined;
    const text = input?.length === 1 && input[0] && !input[0].dynamic ? input[0].text : undefined;
    for (const file of outputs)
      recordFileWrite(state.facts, file, text, command.name === 'tee' && appends(command));
  }
  for (const { word, changesText } of modifiedFiles(command)) {
    judgeProtectedWrite(state, word, command.text);
    if (changesText) recordFileWrite(state.facts, word, undefined, false);
  }
}
