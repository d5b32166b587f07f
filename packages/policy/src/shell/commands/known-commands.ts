import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { defineAliases } from '../nested-code/aliases.js';
import { STDIN_FILE, judgeCodeFromInput, judgeComputedCode } from '../nested-code/code-from-input.js';
import { runInterpreter } from '../nested-code/interpreters.js';
import { parseKnownScripts, substitutionText } from '../nested-code/known-scripts.js';
import { runWrittenScript } from '../nested-code/line-scripts.js';
import { runEval, runShell } from '../nested-code/shells-and-eval.js';
import { recordLinks } from '../paths/links.js';
import { changeDirectory } from '../paths/working-directory.js';
import { type Scope, knownInput } from '../scope.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';
import { recordMapfile } from './mapfile.js';
import { inOptionCluster } from './option-parsing.js';
import { setPositional } from './positional-parameters.js';
import { DANGEROUS_VARIABLE, INTERPRETERS, SHELLS } from './program-kinds.js';
import { recordRead } from './read-printf-getopts.js';

/** One simple command as an analyser gets it: after wrappers, with where it runs. */
export interface CommandCall {
  readonly state: AnalysisState;
  /** The scope the command runs in (nested scripts it holds run one level deeper). */
  readonly scope: Scope;
  /** The normalized command name. */
  readonly name: string;
  /** Its arguments, after wrappers. */
  readonly args: readonly ShellWord[];
  /** The source text findings about it name. */
  readonly text: string;
}

/**
 * Analyses the commands of one name. Returns true when it judged the command whole (the script a
 * shell, `eval` or `source` runs was analysed): the command itself is then not recorded, nor
 * judged by the default rules; false when the usual judging of the command follows.
 */
export type CommandAnalyser = (call: CommandCall) => boolean;

/** The scope of code a command runs: one level deeper. */
const deeper = (scope: Scope): Scope => ({ ...scope, depth: scope.depth + 1 });

/** A shell (`bash`, `sh`...): the script of `-c`, a script named at run time or read from its input. */
const shell: CommandAnalyser = ({ state, scope, name, args, text }) =>
  runShell(state, deeper(scope), name, args, text);

/** `eval WORDS`: the words are parsed as a script. */
const evaluate: CommandAnalyser = ({ state, scope, args, text }) => {
  runEval(state, deeper(scope), args, text);
  return true;
};

/** `source FILE` (also `.`): a program read from standard input or named at run time. */
const source: CommandAnalyser = ({ state, scope, name, args, text }) => {
  const file = args[0];
  if (file && !file.dynamic && STDIN_FILE.test(file.text) && scope.stdinFrom.length > 0) {
    judgeCodeFromInput(state, scope.stdinFrom, name, text);
    parseKnownScripts(state, scope, name, knownInput(scope), text);
    return true;
  }
  if (file?.dynamic) {
    judgeComputedCode(state, file, name, text, `${name} of a file named at run time`);
    parseKnownScripts(state, scope, name, substitutionText(state, file), text);
    return true;
  }
  if (file) runWrittenScript(state, scope, file, name, text);
  return false;
};

/** at and batch run the commands they read from standard input later, with sh. */
const scheduler: CommandAnalyser = ({ state, scope, name, text }) => {
  if (scope.stdinFrom.length > 0) judgeCodeFromInput(state, scope.stdinFrom, name, text);
  return false;
};

const parallel: CommandAnalyser = ({ state, text }) => {
  notUnderstood(state, 'parallel builds commands at run time', text);
  return false;
};

/** `alias NAME='BODY'`: later uses of NAME run the body. */
const alias: CommandAnalyser = ({ state, scope, args, text }) => {
  if (args.some((word) => word.dynamic || word.text.includes('='))) {
    notUnderstood(state, 'alias definitions change what later words run', text);
    defineAliases(state, deeper(scope), args, text);
  }
  return false;
};

/** `trap ACTION SIGNAL...`: the action is a script. */
const trap: CommandAnalyser = ({ state, scope, args, text }) => {
  const action = args[0];
  if (!action) return false;
  if (action.dynamic) notUnderstood(state, 'the trap action is computed at run time', text);
  else
    state.nested.analyzeScript(state, { ...deeper(scope), via: [...scope.via, 'trap'] }, action.text, text);
  return false;
};

/** `cd`, `pushd`, `popd`: the working directory of the commands after them. */
const directory: CommandAnalyser = ({ state, name, args }) => {
  changeDirectory(state.facts, name, args);
  return false;
};

/** `ln`, `mknod`: links and device nodes, other names of what they lead to. */
const link: CommandAnalyser = ({ state, name, args }) => {
  recordLinks(state.facts, name, args);
  return false;
};

/** `set -- WORDS`, `shift`: the positional parameters. */
const positional: CommandAnalyser = ({ state, name, args }) => {
  setPositional(state, name, args);
  return false;
};

/** `mapfile`, `readarray`: the array it fills, and the callback of `-C`. */
const mapfile: CommandAnalyser = ({ state, scope, name, args, text }) => {
  const callback = recordMapfile(state.facts, args, knownInput(scope));
  if (callback === 'unknown' || callback?.dynamic)
    notUnderstood(state, `the ${name} callback (-C) is computed at run time`, text);
  else if (callback) {
    state.nested.analyzeScript(
      state,
      { ...deeper(scope), via: [...scope.via, `${name} -C`] },
      callback.text,
      text,
    );
    notUnderstood(state, `${name} runs its callback (-C) with the index and the line read appended`, text);
  }
  return false;
};

/** `read NAME...`: the fields of the line it reads. */
const read: CommandAnalyser = ({ state, scope, name, args }) => {
  // `read X < <(echo /dev/sda)`, `read X <<< ...`, a heredoc: the first line of a known input.
  const input = knownInput(scope);
  const only = input?.length === 1 ? input[0] : undefined;
  const line = only && !only.dynamic ? only.text : undefined;
  const limited = args.some((word) => /^-[^-]*[dnN]/.test(word.text));
  recordRead(
    state.facts,
    name,
    args,
    line === undefined || limited ? undefined : staticWord(line.split('\n')[0] ?? ''),
  );
  return false;
};

/** `printf -v NAME`, `getopts SPEC NAME`: the variable they set. */
const assigns: CommandAnalyser = ({ state, name, args }) => {
  recordRead(state.facts, name, args);
  return false;
};

/** An interpreter (`python3`, `node`...) with the flags that run inline code. */
const interpreter =
  (inlineFlags: readonly string[]): CommandAnalyser =>
  ({ state, scope, name, args, text }) => {
    runInterpreter(state, scope, name, inlineFlags, args, text);
    return false;
  };

/**
 * The analysers of commands whose arguments are code (shells, `eval`, `source`, `trap`,
 * interpreters) or change what the line knows for the commands after them (`cd`, `ln`, `set`,
 * `read`, `mapfile`...), by command name. Commands that run other commands given as words
 * (wrappers, `xargs`, `coproc`, `find -exec`) are followed by `runCommand` itself.
 */
export const COMMAND_ANALYSERS: ReadonlyMap<string, CommandAnalyser> = new Map<string, CommandAnalyser>([
  ...[...SHELLS].map((name): [string, CommandAnalyser] => [name, shell]),
  ['eval', evaluate],
  ['source', source],
  ['.', source],
  ['at', scheduler],
  ['batch', scheduler],
  ['parallel', parallel],
  ['alias', alias],
  ['trap', trap],
  ['cd', directory],
  ['pushd', directory],
  ['popd', directory],
  ['ln', link],
  ['mknod', link],
  ['set', positional],
  ['shift', positional],
  ['mapfile', mapfile],
  ['readarray', mapfile],
  ['read', read],
  ['printf', assigns],
  ['getopts', assigns],
  ...[...INTERPRETERS].map(([name, flags]): [string, CommandAnalyser] => [name, interpreter(flags)]),
]);

/**
 * `hash -p /bin/rm ls` makes `ls` run rm, `enable -f lib.so name` loads a builtin, `printf -v
 * PATH` and `read PATH` assign what the assignment checks guard.
 */
export function changesCommandNames(name: string, args: readonly ShellWord[]): boolean {
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
