import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import { assignWords } from '../facts/array-assignments.js';
import { POSITIONAL } from '../facts/array-keys.js';
import { inChild } from '../facts/children-and-branches.js';
import { assignVariable, forgetVariable } from '../facts/variables.js';
import { type Scope, knownInput } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { valuesOf } from '../words/word-readings.js';
import { judgeCodeFromInput, judgeComputedCode, STDIN_FILE } from './code-from-input.js';
import { parseKnownScripts, substitutionText } from './known-scripts.js';
import { runWrittenScript } from './line-scripts.js';

/** Longest script text read from values set earlier in the line (as a command line's own bound). */
const MAX_READING = 65_536;

/**
 * The one text words may have with the values set earlier in the line (`sh -c "tee $OUT"` after
 * `OUT=/dev/sda`): read so a deny rule inside still denies; the line stays asked otherwise.
 */
function onlyReading(words: readonly ShellWord[]): string | undefined {
  const texts: string[] = [];
  for (const word of words) {
    if (!word.dynamic) texts.push(word.text);
    else if (word.readings?.length !== 1) return undefined;
    else {
      const fields = word.readings[0] as readonly ShellWord[];
      if (fields.some((field) => field.dynamic)) return undefined;
      texts.push(fields.map((field) => field.text).join(' '));
    }
  }
  const text = texts.join(' ');
  return text.length <= MAX_READING ? text : undefined;
}

/**
 * `sh -c SCRIPT NAME ARG...`: the script's `$0` is NAME and its positional parameters the words
 * after it (`sh -c 'tee "$1"' _ /dev/sda` writes the disk), none when there are none.
 */
function positionalAfter(state: AnalysisState, args: readonly ShellWord[], scriptIndex: number): void {
  forgetVariable(state.facts, POSITIONAL);
  assignWords(state.facts, POSITIONAL, args.slice(scriptIndex + 2));
  const name = args[scriptIndex + 1];
  if (name) assignVariable(state.facts, '$0', valuesOf(state.facts, name));
  else forgetVariable(state.facts, '$0');
}

/**
 * A shell (`bash`, `sh`...): the script of `-c`, a script file named at run time, or a program
 * read from standard input. Returns whether it was judged here (false: a script file the rules
 * match as a command).
 */
export function runShell(
  state: AnalysisState,
  scope: Scope,
  name: string,
  args: readonly ShellWord[],
  text: string,
): boolean {
  // Options come first (`-c` only says that the first operand is the command string: `bash -c
  // -x 'cmd'` runs cmd); `-` or `--` ends them; each `o`/`O` in a cluster takes the next word.
  let inline = false;
  let operandIndex = -1;
  let readsStdin = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) {
      operandIndex = index;
      break;
    }
    const value = word.text;
    if (value === '-' || value === '--') {
      if (index + 1 < args.length) operandIndex = index + 1;
      break;
    }
    if (/^[-+][a-zA-Z]+$/.test(value)) {
      if (value.startsWith('-') && value.includes('c')) inline = true;
      if (value.startsWith('-') && value.includes('s')) readsStdin = true;
      index += value.replace(/[^oO]/g, '').length;
      continue;
    }
    if (value.startsWith('--')) continue;
    operandIndex = index;
    break;
  }
  if (inline) {
    const script = operandIndex >= 0 ? args[operandIndex] : undefined;
    if (!script) {
      notUnderstood(state, `${name} -c without a command`, text);
      return true;
    }
    if (script.dynamic) {
      judgeComputedCode(
        state,
        script,
        `${name} -c`,
        text,
        `the command given to ${name} -c is computed at run time`,
      );
      const known = onlyReading([script]);
      if (known !== undefined)
        inChild(
          state.facts,
          () => {
            positionalAfter(state, args, operandIndex);
            state.nested.analyzeScript(state, { ...scope, via: [...scope.via, `${name} -c`] }, known, text);
          },
          'shell',
        );
      return true;
    }
    // A child process: the directories and variables it changes are its own.
    inChild(
      state.facts,
      () => {
        positionalAfter(state, args, operandIndex);
        state.nested.analyzeScript(state, { ...scope, via: [...scope.via, `${name} -c`] }, script.text, text);
      },
      'shell',
    );
    return true;
  }
  if (operandIndex >= 0 && !readsStdin && !STDIN_FILE.test((args[operandIndex] as ShellWord).text)) {
    const operand = args[operandIndex] as ShellWord;
    if (operand.dynamic) {
      judgeComputedCode(state, operand, name, text, `the script ${name} runs is named at run time`);
      parseKnownScripts(state, scope, name, substitutionText(state, operand), text);
      return true;
    }
    // A script file: matched as a command by the rules, and judged by its text when the line wrote it.
    runWrittenScript(state, scope, operand, name, text);
    return false;
  }
  if (scope.stdinFrom.length > 0) {
    judgeCodeFromInput(state, scope.stdinFrom, name, text);
    parseKnownScripts(state, scope, name, knownInput(scope), text);
    return true;
  }
  return false;
}

/** `eval WORDS`: the joined words are parsed as a script; the output of a substitution is denied. */
export function runEval(state: AnalysisState, scope: Scope, args: readonly ShellWord[], text: string): void {
  if (args.some((word) => word.substitutions.length > 0)) {
    report(state, 'deny', 'eval-injection', 'eval runs the output of a command substitution', text);
    return;
  }
  if (args.some((word) => word.dynamic)) {
    notUnderstood(state, 'eval of text computed at run time', text);
    const known = onlyReading(args);
    if (known !== undefined)
      state.nested.analyzeScript(state, { ...scope, via: [...scope.via, 'eval'] }, known, text);
    return;
  }
  state.nested.analyzeScript(
    state,
    { ...scope, via: [...scope.via, 'eval'] },
    args.map((word) => word.text).join(' '),
    text,
  );
}
