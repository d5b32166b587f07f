import type { SimpleCommand } from './analysis.js';
import { type AnalysisState, MAX_NESTING, type Scope, notUnderstood, report } from './context.js';
import { checkDangers } from './dangers.js';
import { normalizeCommandName, parseOptions } from './normalize.js';
import { DANGEROUS_VARIABLE, DECODERS, FETCHERS, INTERPRETERS, SHELLS } from './programs.js';
import { inspectDebuggers } from './debuggers.js';
import { inspectEmbeddedCommands } from './embedded.js';
import { recordCall } from './recursion.js';
import { inspectInlineScripts } from './scripts.js';
import { callFunction, inChild, valuesOf, withVariables } from './facts.js';
import { recordRead } from './assignments.js';
import { recordLinks } from './links.js';
import { inspectRemoteCommand } from './remote.js';
import { findRoots, markRunTimeName, xargsReplacement } from './run-time-names.js';
import { changeDirectory, inWrapperDirectory } from './working-directory.js';
import { WRAPPERS, peelWrapper } from './wrappers.js';
import { type ShellWord, sliceWord, staticWord } from './words.js';

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

/** File names that are the standard input (`bash /dev/stdin` reads its program from a pipe). */
const STDIN_FILE = /^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

function describeSources(sources: readonly string[]): 'fetch' | 'decode' | 'other' | 'none' {
  if (sources.length === 0) return 'none';
  if (sources.some((name) => FETCHERS.has(name))) return 'fetch';
  if (sources.some((name) => DECODERS.has(name))) return 'decode';
  return 'other';
}

/** Judges a shell or interpreter that reads its program from standard input or a substitution. */
function judgeCodeFromInput(
  state: AnalysisState,
  sources: readonly string[],
  program: string,
  text: string,
): void {
  switch (describeSources(sources)) {
    case 'fetch':
      report(state, 'deny', 'remote-code-execution', `downloaded text is run by ${program}`, text);
      return;
    case 'decode':
      report(state, 'deny', 'eval-injection', `decoded text is run by ${program}`, text);
      return;
    case 'other':
      notUnderstood(
        state,
        sources.includes('<<heredoc')
          ? `the heredoc run by ${program} is not analyzed`
          : `text produced at run time is run by ${program}`,
        text,
      );
      return;
    default:
  }
}

/** Names of the commands inside a word's substitutions (analyzed by the walker beforehand). */
function sourcesOf(state: AnalysisState, word: ShellWord): string[] {
  const names: string[] = [];
  for (const substitution of word.substitutions)
    names.push(...(state.substitutionNames.get(substitution.id) ?? []));
  return names;
}

function runShell(
  state: AnalysisState,
  scope: Scope,
  name: string,
  args: readonly ShellWord[],
  text: string,
  nested: NestedAnalyzer,
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
      const sources = sourcesOf(state, script);
      judgeCodeFromInput(state, sources, `${name} -c`, text);
      if (describeSources(sources) === 'none')
        notUnderstood(state, `the command given to ${name} -c is computed at run time`, text);
      const known = onlyReading([script]);
      if (known !== undefined)
        inChild(state.facts, () =>
          nested(state, { ...scope, via: [...scope.via, `${name} -c`] }, known, text),
        );
      return true;
    }
    // A child process: the directories and variables it changes are its own.
    inChild(state.facts, () =>
      nested(state, { ...scope, via: [...scope.via, `${name} -c`] }, script.text, text),
    );
    return true;
  }
  if (operandIndex >= 0 && !readsStdin && !STDIN_FILE.test((args[operandIndex] as ShellWord).text)) {
    const operand = args[operandIndex] as ShellWord;
    if (operand.dynamic) {
      const sources = sourcesOf(state, operand);
      judgeCodeFromInput(state, sources, name, text);
      if (describeSources(sources) === 'none')
        notUnderstood(state, `the script ${name} runs is named at run time`, text);
      return true;
    }
    return false; // runs a script file: matched as a command by the rules
  }
  if (scope.stdinFrom.length > 0) {
    judgeCodeFromInput(state, scope.stdinFrom, name, text);
    return true;
  }
  return false;
}

/** PowerShell parameters that run inline code, by any unique prefix (`-c`, `-enc`, `-ec`, `-cwa`). */
const POWERSHELL_INLINE = ['command', 'encodedcommand', 'commandwithargs'];

/**
 * Whether an argument is a flag that runs inline code: `-c`, `-c'code'`, `--eval=code`, and for
 * POSIX-style interpreters a flag cluster containing it (`python3 -Ic`, `perl -ne`).
 */
function isInlineFlag(name: string, inlineFlags: readonly string[], arg: string): boolean {
  if (name === 'pwsh' || name === 'powershell') {
    const option = /^[-/]([a-zA-Z]+)$/.exec(arg)?.[1]?.toLowerCase();
    return (
      option !== undefined &&
      (option === 'ec' || option === 'cwa' || POWERSHELL_INLINE.some((full) => full.startsWith(option)))
    );
  }
  return inlineFlags.some((flag) => {
    if (arg === flag || arg.startsWith(`${flag}=`)) return true;
    if (!/^-[a-zA-Z]$/.test(flag)) return arg.startsWith(flag) && flag.length === 2;
    return new RegExp(`^-[a-zA-Z]*${flag[1]}`).test(arg);
  });
}

function runInterpreter(
  state: AnalysisState,
  scope: Scope,
  name: string,
  inlineFlags: readonly string[],
  args: readonly ShellWord[],
  text: string,
): void {
  for (const word of args) {
    if (word.dynamic) {
      const sources = sourcesOf(state, word);
      if (describeSources(sources) !== 'none') judgeCodeFromInput(state, sources, name, text);
    }
  }
  const texts = args.map((word) => word.text);
  if (texts.some((arg) => isInlineFlag(name, inlineFlags, arg)))
    notUnderstood(state, `${name} runs inline code that is not analyzed`, text);
  const operands = parseOptions(texts).operands;
  if (operands.length === 0 || operands[0] === '-' || STDIN_FILE.test(operands[0] as string)) {
    if (scope.stdinFrom.length > 0) judgeCodeFromInput(state, scope.stdinFrom, name, text);
  }
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
    return;
  }
  const name = normalizeCommandName(head.text);
  const args = words.slice(1);
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
      case 'opaque':
        notUnderstood(state, `${name}: ${peeled.reason}`, text);
        state.commands.push(makeCommand(name, args, written, scope, text, extraArgs));
        return;
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
        // `xargs -I{} tee /dev/{}`: the replaced words are file names known only at run time.
        const replacement = name === 'xargs' ? xargsReplacement(args) : undefined;
        const words = replacement
          ? peeled.words.map((word) => markRunTimeName(word, replacement))
          : peeled.words;
        withVariables(state.facts, variables, () =>
          inWrapperDirectory(state.facts, peeled.directory, () =>
            runCommand(
              state,
              { ...inner, via, elevated },
              words,
              text,
              nested,
              written,
              extraArgs || wrapper.extraArgs === true,
            ),
          ),
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
      return;
    }
    if (file?.dynamic) {
      const sources = sourcesOf(state, file);
      judgeCodeFromInput(state, sources, name, text);
      if (describeSources(sources) === 'none')
        notUnderstood(state, `${name} of a file named at run time`, text);
      return;
    }
  } else if ((name === 'at' || name === 'batch') && scope.stdinFrom.length > 0) {
    // at and batch run the commands they read from standard input later, with sh.
    judgeCodeFromInput(state, scope.stdinFrom, name, text);
  } else if (name === 'parallel') {
    notUnderstood(state, 'parallel builds commands at run time', text);
  } else if (name === 'alias' && args.some((word) => word.dynamic || word.text.includes('='))) {
    notUnderstood(state, 'alias definitions change what later words run', text);
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
  } else if (name === 'read' || name === 'printf' || /^(mapfile|readarray|getopts)$/.test(name)) {
    recordRead(state.facts, name, args);
  } else {
    const interpreter = INTERPRETERS.get(name);
    if (interpreter) runInterpreter(state, scope, name, interpreter, args, text);
  }
  callFunction(state.facts, name);
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
  const cluster = (letter: string) => (word: ShellWord) =>
    word.dynamic || new RegExp(`^-[a-zA-Z]*${letter}`).test(word.text);
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

function runEval(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  text: string,
  nested: NestedAnalyzer,
): void {
  if (args.some((word) => word.substitutions.length > 0)) {
    report(state, 'deny', 'eval-injection', 'eval runs the output of a command substitution', text);
    return;
  }
  if (args.some((word) => word.dynamic)) {
    notUnderstood(state, 'eval of text computed at run time', text);
    const known = onlyReading(args);
    if (known !== undefined) nested(state, { ...scope, via: [...scope.via, 'eval'] }, known, text);
    return;
  }
  nested(state, { ...scope, via: [...scope.via, 'eval'] }, args.map((word) => word.text).join(' '), text);
}

const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function runFindExec(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  text: string,
  nested: NestedAnalyzer,
): void {
  const roots = findRoots(args);
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic || !EXEC_ACTIONS.has(word.text)) continue;
    const inner: ShellWord[] = [];
    let end = index + 1;
    while (end < args.length) {
      const part = args[end] as ShellWord;
      if (!part.dynamic && (part.text === ';' || part.text === '+')) break;
      inner.push(part.text.includes('{}') ? markRunTimeName(part, '{}', roots) : part);
      end++;
    }
    if (inner.length === 0) notUnderstood(state, `find ${word.text} without a command`, text);
    else
      runCommand(
        state,
        { ...scope, via: [...scope.via, `find ${word.text}`] },
        inner,
        text,
        nested,
        inner,
        true,
      );
    index = end;
  }
}

function makeCommand(
  name: string,
  args: readonly ShellWord[],
  written: readonly ShellWord[],
  scope: Scope,
  text: string,
  extraArgs: boolean,
): SimpleCommand {
  const normalizedWritten = written.map((word, index) =>
    index === 0 && !word.dynamic ? { ...word, text: normalizeCommandName(word.text) } : word,
  );
  return {
    name,
    args,
    written: normalizedWritten,
    via: scope.via,
    elevated: scope.elevated,
    extraArgs,
    stdinFrom: scope.stdinFrom,
    text,
  };
}
