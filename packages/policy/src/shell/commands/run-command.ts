import { type AnalysisState, MAX_NESTING, notUnderstood } from '../analysis-state.js';
import { callFunction } from '../facts/children-and-branches.js';
import { withVariables } from '../facts/variables.js';
import { useAlias } from '../nested-code/aliases.js';
import { followCommandWrites } from '../file-writes/protected-writes.js';
import { inspectCodeInArguments } from '../nested-code/code-in-arguments.js';
import { runWrittenProgram, runWrittenScript } from '../nested-code/line-scripts.js';
import { inWrapperDirectory } from '../paths/working-directory.js';
import { applyDefaultDenyRules } from '../rules/default-deny-rules.js';
import { recordCall } from '../rules/fork-bombs.js';
import type { Scope } from '../scope.js';
import { type ShellWord, sliceWord, staticWord } from '../words/shell-word.js';
import { valuesOf } from '../words/word-readings.js';
import { normalizeCommandName } from './command-names.js';
import { makeCommand } from './command-record.js';
import { splitStringCommand } from './env-split-string.js';
import { findExecCommands } from './find.js';
import { replayFunction } from './function-calls.js';
import { COMMAND_ANALYSERS, changesCommandNames } from './known-commands.js';
import { DANGEROUS_VARIABLE, INTERPRETERS, SHELLS } from './program-kinds.js';
import { WRAPPERS, peelWrapper } from './wrappers.js';
import { xargsRuns } from './xargs.js';

/** Replaces words that split on `$IFS` with their pieces (the likely reading); says whether any did. */
function expandIfs(words: readonly ShellWord[]): { words: ShellWord[]; guessed: boolean } {
  const out: ShellWord[] = [];
  let guessed = false;
  for (const word of words) {
    if (word.ifsPieces && !word.glob) {
      guessed = true;
      for (const piece of word.ifsPieces) out.push(staticWord(piece));
    } else out.push(word);
  }
  return { words: out, guessed };
}

/**
 * Analyzes one simple command given as words (name first): a name computed at run time is asked
 * (each reading of it judged too); wrappers, `xargs`, `coproc` and `find -exec` are followed
 * into the commands they run; the analyser of the command's name ({@link COMMAND_ANALYSERS})
 * runs; then a function defined in the line is replayed with the call's arguments, code in the
 * arguments is looked for, the default deny rules are applied and the command is recorded.
 */
export function runCommand(
  state: AnalysisState,
  scope: Scope,
  input: readonly ShellWord[],
  text: string,
  written: readonly ShellWord[] = input,
  extraArgs = false,
): void {
  if (input.length === 0) return;
  if (scope.depth > MAX_NESTING) {
    notUnderstood(state, 'commands nested too deeply to follow', text);
    return;
  }
  const expanded = expandIfs(input);
  const words = expanded.words;
  if (expanded.guessed) notUnderstood(state, 'words split by $IFS are read with the default IFS', text);
  const head = words[0] as ShellWord;
  if (head.dynamic || head.glob) {
    notUnderstood(
      state,
      head.glob ? 'the command name is a file-name pattern' : 'the command name is computed at run time',
      text,
    );
    state.commands.push(makeCommand('', words.slice(1), written, scope, text, extraArgs));
    // `X=rm; $X -rf /`, `f(){ "$@"; }; f rm -rf /`: each reading of a name set in the line is
    // judged too (the line stays asked; a deny rule inside denies it).
    for (const fields of head.readings ?? [])
      if (fields[0] && !fields[0].dynamic)
        runCommand(state, scope, [...fields, ...words.slice(1)], text, written, extraArgs);
    return;
  }
  const name = normalizeCommandName(head.text);
  const args = words.slice(1);
  useAlias(state, scope, head.text, args, text);
  const wrapper = WRAPPERS.get(name);
  const inner = { ...scope, depth: scope.depth + 1 };
  if (name === 'coproc') {
    runCoproc(state, { ...inner, via: [...scope.via, name] }, args, text, written, extraArgs);
    return;
  }
  if (wrapper) {
    const peeled = peelWrapper(wrapper, args);
    const via = [...scope.via, name];
    const elevated = scope.elevated || wrapper.elevates === true;
    switch (peeled.kind) {
      case 'query':
        state.commands.push(makeCommand(name, args, written, scope, text, extraArgs));
        return;
      case 'opaque': {
        notUnderstood(state, `${name}: ${peeled.reason}`, text);
        state.commands.push(makeCommand(name, args, written, scope, text, extraArgs));
        // `env -S 'rm -rf /'`: the command the string holds is judged by the deny rules too.
        const split = name === 'env' ? splitStringCommand(args) : undefined;
        if (split !== undefined) state.nested.analyzeScript(state, { ...inner, via }, split, text);
        return;
      }
      case 'script':
        if (peeled.script.dynamic)
          notUnderstood(state, `the command given to ${name} is computed at run time`, text);
        else state.nested.analyzeScript(state, { ...inner, via, elevated }, peeled.script.text, text);
        return;
      default: {
        if (wrapper.scriptOnly) break;
        for (const variable of peeled.assignments) {
          if (DANGEROUS_VARIABLE.test(variable))
            notUnderstood(state, `${variable} set through ${name} changes what runs`, text);
        }
        if (peeled.words.length === 0) {
          if (wrapper.extraArgs) {
            runCommand(state, { ...inner, via }, [staticWord('echo')], text, written, true);
            return;
          }
          if (wrapper.elevates)
            notUnderstood(state, `${name} without a command starts a privileged shell`, text);
          state.commands.push(makeCommand(name, args, written, scope, text, extraArgs));
          return;
        }
        if (name === 'watch') {
          if (peeled.words.some((word) => word.dynamic)) {
            notUnderstood(state, 'the command given to watch is computed at run time', text);
            return;
          }
          state.nested.analyzeScript(
            state,
            { ...inner, via },
            peeled.words.map((word) => word.text).join(' '),
            text,
          );
          return;
        }
        // `env NAME=value cmd`, `env -C DIR cmd`: cmd runs with them, the rest of the line does not.
        const variables = peeled.assignmentWords.map((word) => {
          const name = word.text.slice(0, word.text.indexOf('='));
          return { name, values: valuesOf(state.facts, sliceWord(word, name.length + 1)) };
        });
        const commands =
          name === 'xargs' ? xargsRuns(state, scope, args, peeled.words, text) : [peeled.words];
        const more = wrapper.extraArgs === true;
        withVariables(state.facts, variables, () =>
          inWrapperDirectory(state.facts, peeled.directory, () => {
            for (const command of commands)
              runCommand(state, { ...inner, via, elevated }, command, text, written, extraArgs || more);
          }),
        );
        return;
      }
    }
  }
  const command = makeCommand(name, args, written, scope, text, extraArgs);
  followCommandWrites(state, scope, command);
  // `./s.sh`, `sub/s.sh`: a file run by its path, judged by its text when the line wrote it.
  if (/[/\\]/.test(head.text)) runWrittenScript(state, scope, head, '', text);
  runWrittenProgram(state, name, args, text);
  if (changesCommandNames(name, args))
    notUnderstood(state, `${name} changes what later command names or variables run`, text);
  if (extraArgs && (SHELLS.has(name) || INTERPRETERS.has(name) || name === 'eval')) {
    notUnderstood(state, `${name} runs with arguments supplied at run time (xargs, find -exec)`, text);
  }
  if (name === 'find') runFindExec(state, inner, args, text);
  else if (COMMAND_ANALYSERS.get(name)?.({ state, scope, name, args, text })) return;
  if (!replayFunction(state, scope, name, args, text)) callFunction(state.facts, name);
  recordCall(state, scope, name, text);
  inspectCodeInArguments(state, scope, command);
  applyDefaultDenyRules(state, command);
  state.commands.push(command);
}

/** `find ... -exec CMD ... ;`: each command find runs is analyzed, with arguments supplied at run time. */
function runFindExec(state: AnalysisState, scope: Scope, args: readonly ShellWord[], text: string): void {
  for (const { action, words } of findExecCommands(args))
    if (words.length === 0) notUnderstood(state, `find ${action} without a command`, text);
    else runCommand(state, { ...scope, via: [...scope.via, `find ${action}`] }, words, text, words, true);
}

/** `coproc cmd args` runs cmd; `coproc NAME { ...; }` is split oddly by the grammar: its words are parsed again. */
function runCoproc(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  text: string,
  written: readonly ShellWord[],
  extraArgs: boolean,
): void {
  const open = args.findIndex((word) => !word.dynamic && (word.text === '{' || word.text === '('));
  if (open < 0 || open > 1) {
    runCommand(state, scope, args, text, written, extraArgs);
    return;
  }
  notUnderstood(state, 'coproc of a compound command is not fully analyzed', text);
  const body = args.slice(open + 1);
  if (body.every((word) => !word.dynamic))
    state.nested.analyzeScript(state, scope, body.map((word) => word.text).join(' '), text);
}
