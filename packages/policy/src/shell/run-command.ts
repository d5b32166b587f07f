import { defineAliases, useAlias } from './aliases.js';
import { recordRead } from './assignments.js';
import { recordMapfile } from './mapfile.js';
import { splitStringCommand } from './split-string.js';
import { parseKnownScripts, substitutionText } from './known-scripts.js';
import { STDIN_FILE, judgeCodeFromInput, judgeComputedCode } from './code-from-input.js';
import { type AnalysisState, MAX_NESTING, type Scope, knownInput, notUnderstood } from './context.js';
import { checkDangers } from './dangers.js';
import { inspectDebuggers } from './debuggers.js';
import { inspectEmbeddedCommands } from './embedded.js';
import { callFunction, withVariables } from './facts.js';
import { outputReaders, valuesOf } from './readings.js';
import { processSubstitutionOutputs } from './known-outputs.js';
import { runFindExec } from './find-exec.js';
import { replayFunction, setPositional } from './function-calls.js';
import { runInterpreter } from './interpreters.js';
import { recordLinks } from './links.js';
import { makeCommand } from './make-command.js';
import { inOptionCluster, normalizeCommandName } from './normalize.js';
import { DANGEROUS_VARIABLE, INTERPRETERS, SHELLS } from './programs.js';
import { recordCall } from './recursion.js';
import { inspectRemoteCommand } from './remote.js';
import { runEval, runShell } from './run-shell.js';
import { markRunTimeName, xargsReplacement } from './run-time-names.js';
import { inspectInlineScripts } from './scripts.js';
import { type ShellWord, sliceWord, staticWord } from './shell-word.js';
import { changeDirectory, inWrapperDirectory } from './working-directory.js';
import { WRAPPERS, peelWrapper } from './wrappers.js';
import { argFileInput, xargsCommands } from './xargs-input.js';

/** Parses a nested script (`bash -c '...'`, `eval ...`) in a scope one level deeper. */
export type NestedAnalyzer = (state: AnalysisState, scope: Scope, script: string, text: string) => void;

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
 * Analyzes one simple command given as words (name first): peels wrappers, follows nested
 * scripts, applies the default deny rules and records the effective command.
 */
export function runCommand(
  state: AnalysisState,
  scope: Scope,
  input: readonly ShellWord[],
  text: string,
  nested: NestedAnalyzer,
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
        runCommand(state, scope, [...fields, ...words.slice(1)], text, nested, written, extraArgs);
    return;
  }
  const name = normalizeCommandName(head.text);
  const args = words.slice(1);
  useAlias(state, scope, head.text, args, text, nested);
  const wrapper = WRAPPERS.get(name);
  const inner = { ...scope, depth: scope.depth + 1 };
  if (name === 'coproc') {
    runCoproc(state, { ...inner, via: [...scope.via, name] }, args, text, nested, written, extraArgs);
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
        if (split !== undefined) nested(state, { ...inner, via }, split, text);
        return;
      }
      case 'script':
        if (peeled.script.dynamic)
          notUnderstood(state, `the command given to ${name} is computed at run time`, text);
        else nested(state, { ...inner, via, elevated }, peeled.script.text, text);
        return;
      default: {
        if (wrapper.scriptOnly) break;
        for (const variable of peeled.assignments) {
          if (DANGEROUS_VARIABLE.test(variable))
            notUnderstood(state, `${variable} set through ${name} changes what runs`, text);
        }
        if (peeled.words.length === 0) {
          if (wrapper.extraArgs) {
            runCommand(state, { ...inner, via }, [staticWord('echo')], text, nested, written, true);
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
          nested(state, { ...inner, via }, peeled.words.map((word) => word.text).join(' '), text);
          return;
        }
        // `env NAME=value cmd`, `env -C DIR cmd`: cmd runs with them, the rest of the line does not.
        const variables = peeled.assignmentWords.map((word) => {
          const name = word.text.slice(0, word.text.indexOf('='));
          return { name, values: valuesOf(state.facts, sliceWord(word, name.length + 1)) };
        });
        // `echo /dev/sda | xargs tee`: with a known input, the commands xargs runs are known.
        const options = args.slice(0, args.length - peeled.words.length);
        const file =
          name === 'xargs'
            ? argFileInput(options, (node) => processSubstitutionOutputs(node, outputReaders(state.facts)))
            : undefined;
        const input = file?.input ?? (name === 'xargs' ? knownInput(scope) : undefined);
        const built = input ? xargsCommands(file?.options ?? options, peeled.words, input) : undefined;
        if (built === 'too-many') notUnderstood(state, 'xargs is fed more input than is followed', text);
        // `xargs -I{} tee /dev/{}`: the replaced words are file names known only at run time.
        const replacement = name === 'xargs' ? xargsReplacement(args) : undefined;
        const words = replacement
          ? peeled.words.map((word) => markRunTimeName(word, replacement))
          : peeled.words;
        // Known input only adds what it shows: the commands still count as fed at run time.
        const commands = built && built !== 'too-many' ? built : [words];
        const more = wrapper.extraArgs === true;
        withVariables(state.facts, variables, () =>
          inWrapperDirectory(state.facts, peeled.directory, () => {
            for (const command of commands)
              runCommand(
                state,
                { ...inner, via, elevated },
                command,
                text,
                nested,
                written,
                extraArgs || more,
              );
          }),
        );
        return;
      }
    }
  }
  const command = makeCommand(name, args, written, scope, text, extraArgs);
  if (changesCommandNames(name, args))
    notUnderstood(state, `${name} changes what later command names or variables run`, text);
  if (extraArgs && (SHELLS.has(name) || INTERPRETERS.has(name) || name === 'eval')) {
    notUnderstood(state, `${name} runs with arguments supplied at run time (xargs, find -exec)`, text);
  }
  if (SHELLS.has(name)) {
    if (runShell(state, inner, name, args, text, nested)) return;
  } else if (name === 'eval') {
    runEval(state, inner, args, text, nested);
    return;
  } else if (name === 'source' || name === '.') {
    const file = args[0];
    if (file && !file.dynamic && STDIN_FILE.test(file.text) && scope.stdinFrom.length > 0) {
      judgeCodeFromInput(state, scope.stdinFrom, name, text);
      parseKnownScripts(state, scope, nested, name, knownInput(scope), text);
      return;
    }
    if (file?.dynamic) {
      judgeComputedCode(state, file, name, text, `${name} of a file named at run time`);
      parseKnownScripts(state, scope, nested, name, substitutionText(state, file), text);
      return;
    }
  } else if ((name === 'at' || name === 'batch') && scope.stdinFrom.length > 0) {
    // at and batch run the commands they read from standard input later, with sh.
    judgeCodeFromInput(state, scope.stdinFrom, name, text);
  } else if (name === 'parallel') {
    notUnderstood(state, 'parallel builds commands at run time', text);
  } else if (name === 'alias' && args.some((word) => word.dynamic || word.text.includes('='))) {
    notUnderstood(state, 'alias definitions change what later words run', text);
    defineAliases(state, inner, args, text, nested);
  } else if (name === 'trap' && args.length > 0) {
    const action = args[0] as ShellWord;
    if (action.dynamic) notUnderstood(state, 'the trap action is computed at run time', text);
    else nested(state, { ...inner, via: [...scope.via, 'trap'] }, action.text, text);
  } else if (name === 'find') {
    runFindExec(state, inner, args, text, nested);
  } else if (name === 'cd' || name === 'pushd' || name === 'popd') {
    changeDirectory(state.facts, name, args);
  } else if (name === 'ln' || name === 'mknod') {
    recordLinks(state.facts, name, args);
  } else if (name === 'set' || name === 'shift') {
    setPositional(state, name, args);
  } else if (name === 'mapfile' || name === 'readarray') {
    const callback = recordMapfile(state.facts, args, knownInput(scope));
    if (callback === 'unknown' || callback?.dynamic)
      notUnderstood(state, `the ${name} callback (-C) is computed at run time`, text);
    else if (callback) {
      nested(state, { ...inner, via: [...scope.via, `${name} -C`] }, callback.text, text);
      notUnderstood(state, `${name} runs its callback (-C) with the index and the line read appended`, text);
    }
  } else if (name === 'read') {
    // `read X < <(echo /dev/sda)`, `read X <<< ...`, a heredoc: the first line of a known input.
    const input = knownInput(scope);
    const only = input?.length === 1 ? input[0] : undefined;
    const text = only && !only.dynamic ? only.text : undefined;
    const limited = args.some((word) => /^-[^-]*[dnN]/.test(word.text));
    recordRead(
      state.facts,
      name,
      args,
      text === undefined || limited ? undefined : staticWord(text.split('\n')[0] ?? ''),
    );
  } else if (name === 'printf' || name === 'getopts') {
    recordRead(state.facts, name, args);
  } else {
    const interpreter = INTERPRETERS.get(name);
    if (interpreter) runInterpreter(state, scope, name, interpreter, args, text);
  }
  if (!replayFunction(state, scope, name, args, text)) callFunction(state.facts, name);
  recordCall(state, scope, name, text);
  inspectInlineScripts(state, scope, command, nested);
  inspectEmbeddedCommands(state, scope, command, nested);
  inspectRemoteCommand(state, scope, command, nested);
  inspectDebuggers(state, scope, command, nested);
  checkDangers(state, command);
  state.commands.push(command);
}

/**
 * `hash -p /bin/rm ls` makes `ls` run rm, `enable -f lib.so name` loads a builtin, `printf -v
 * PATH` and `read PATH` assign what the assignment checks guard.
 */
function changesCommandNames(name: string, args: readonly ShellWord[]): boolean {
  const cluster = (letter: string) => (word: ShellWord) => word.dynamic || inOptionCluster(word.text, letter);
  if (name === 'hash') return args.some(cluster('p'));
  if (name === 'enable') return args.some(cluster('f'));
  if (name === 'printf') {
    const at = args.findIndex((word) => word.text === '-v');
    const target = at >= 0 ? args[at + 1] : args.find((word) => word.text.startsWith('-v'));
    return (
      target !== undefined && (target.dynamic || DANGEROUS_VARIABLE.test(target.text.replace(/^-v/, '')))
    );
  }
  if (name === 'read' || name === 'mapfile' || name === 'readarray')
    return args.some((word) => word.dynamic || DANGEROUS_VARIABLE.test(word.text));
  return false;
}

/** `coproc cmd args` runs cmd; `coproc NAME { ...; }` is split oddly by the grammar: its words are parsed again. */
function runCoproc(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  text: string,
  nested: NestedAnalyzer,
  written: readonly ShellWord[],
  extraArgs: boolean,
): void {
  const open = args.findIndex((word) => !word.dynamic && (word.text === '{' || word.text === '('));
  if (open < 0 || open > 1) {
    runCommand(state, scope, args, text, nested, written, extraArgs);
    return;
  }
  notUnderstood(state, 'coproc of a compound command is not fully analyzed', text);
  const body = args.slice(open + 1);
  if (body.every((word) => !word.dynamic))
    nested(state, scope, body.map((word) => word.text).join(' '), text);
}
