import { type AnalysisState, report } from '../analysis-state.js';
import { INTERPRETERS, SHELLS } from '../commands/program-kinds.js';
import { inChild } from '../facts/children-and-branches.js';
import { placedPaths, writtenText } from '../paths/line-files.js';
import { ROOT_SCOPE, type Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';

const CATEGORY = 'script-written-by-line';
/** Most texts of written scripts read in one line (a script may run others, or itself, many times). */
export const MAX_SCRIPT_READS = 32;

/** Reads one written script's text as commands, within {@link MAX_SCRIPT_READS}. */
function readScript(
  state: AnalysisState,
  scope: Scope,
  script: string,
  sameShell: boolean,
  text: string,
): void {
  if (state.scriptReads >= MAX_SCRIPT_READS) {
    report(state, 'ask', CATEGORY, `runs more written scripts than the ${MAX_SCRIPT_READS} followed`, text);
    return;
  }
  state.scriptReads++;
  if (sameShell) state.nested.analyzeScript(state, scope, script, text);
  else inChild(state.facts, () => state.nested.analyzeScript(state, scope, script, text), 'shell');
}

/**
 * A script file the line runs (`sh s.sh`, `bash s.sh`, `. s.sh`, `source s.sh`, `./s.sh`):
 * when the line wrote it, its text is judged as the commands it is, so a deny rule inside
 * denies; a text the line does not show (a run-time value, a copy, a download) is asked.
 * `how` is the program that runs it (`sh`, `source`), empty when it runs by its path.
 */
export function runWrittenScript(
  state: AnalysisState,
  scope: Scope,
  file: ShellWord,
  how: string,
  text: string,
): void {
  const paths = placedPaths(state.facts, file);
  const texts = paths.flatMap((path) => {
    const written = writtenText(state.facts, path);
    return written ? [written] : [];
  });
  state.scriptRuns.push({ paths, written: texts.length > 0, text });
  if (texts.length === 0) return;
  const name = file.text;
  const inner: Scope = {
    ...scope,
    depth: scope.depth + 1,
    stdinFrom: [],
    via: [...scope.via, how === '' ? name : `${how} ${name}`],
  };
  const scripts = new Set<string>();
  for (const written of texts) {
    if (written.known !== undefined) scripts.add(written.known);
    for (const piece of written.pieces) scripts.add(piece);
  }
  const sameShell = how === 'source' || how === '.';
  for (const script of scripts) readScript(state, inner, script, sameShell, text);
  if (texts.some((written) => written.known === undefined))
    report(
      state,
      'ask',
      CATEGORY,
      `runs ${name}, which this line writes with text not known before it runs (a value, a copy or a command's output)`,
      text,
    );
}

/**
 * A program that runs a file as code it does not read as shell (`python a.py`, `node x.js`)
 * after the line wrote that file: asked, as the text cannot be judged.
 */
export function runWrittenProgram(
  state: AnalysisState,
  name: string,
  args: readonly ShellWord[],
  text: string,
): void {
  if (!INTERPRETERS.has(name) || SHELLS.has(name) || state.facts.files.size === 0) return;
  const file = args.find((word) => !word.text.startsWith('-'));
  if (!file || file.dynamic) return;
  if (placedPaths(state.facts, file).some((path) => state.facts.files.has(path)))
    report(
      state,
      'ask',
      CATEGORY,
      `${name} runs ${file.text}, which this line writes; only shell scripts are read`,
      text,
    );
}

/**
 * A script the line runs before it writes that file (`for i in 1 2; do sh s.sh; echo ... >
 * s.sh; done`): the second round may run what was written, so the line is asked.
 */
export function reportLateWrittenScripts(state: AnalysisState): void {
  for (const run of state.scriptRuns) {
    if (run.written || !run.paths.some((path) => state.facts.files.has(path))) continue;
    // What was written is judged too, so a deny rule inside denies.
    const scope: Scope = { ...ROOT_SCOPE, depth: 1, via: ['a script written later in the line'] };
    for (const path of run.paths)
      for (const script of writtenText(state.facts, path)?.pieces ?? [])
        readScript(state, scope, script, false, run.text);
    report(
      state,
      'ask',
      CATEGORY,
      'runs a script file that the line writes later (a loop or a later round may run what was written)',
      run.text,
    );
  }
}
