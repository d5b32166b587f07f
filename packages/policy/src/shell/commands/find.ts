import type { ShellWord } from '../words/shell-word.js';
import { markRunTimeName } from './run-time-names.js';

/** find's options before its starting points (`-L`, `-D debug`, `-O3`). */
const FIND_LEADING = /^-([HLP]|O[0-9]*)$/;

/** The starting points of `find` (`.` when none is given): where the files it names are. */
function findRoots(args: readonly ShellWord[]): ShellWord[] {
  const roots: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (!word.dynamic && word.text === '-D') {
      index++;
      continue;
    }
    if (!word.dynamic && FIND_LEADING.test(word.text)) continue;
    if (!word.dynamic && /^[-(!)]/.test(word.text)) break;
    roots.push(word);
  }
  return roots.length > 0 ? roots : [{ text: '.', dynamic: false, glob: false, substitutions: [] }];
}

/** Primaries that run a command up to `;` or `+`. */
const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** A command `find` runs for its matches: the action that runs it and its words. */
export interface FindExec {
  readonly action: string;
  readonly words: readonly ShellWord[];
}

/**
 * The commands of `find ... -exec CMD ... ;` (and `-execdir`, `-ok`, `-okdir`), in order: each
 * runs with more arguments at run time, `{}` being a file under find's starting points. An
 * action without a command has no words.
 */
export function findExecCommands(args: readonly ShellWord[]): FindExec[] {
  const roots = findRoots(args);
  const commands: FindExec[] = [];
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
    commands.push({ action: word.text, words: inner });
    index = end;
  }
  return commands;
}

/** find primaries that take one argument (skipped, so `-name -fprint` names a pattern). */
const ONE_ARGUMENT = new Set([
  '-name',
  '-iname',
  '-lname',
  '-ilname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-regextype',
  '-type',
  '-xtype',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-perm',
  '-size',
  '-mtime',
  '-atime',
  '-ctime',
  '-mmin',
  '-amin',
  '-cmin',
  '-newer',
  '-anewer',
  '-cnewer',
  '-samefile',
  '-inum',
  '-links',
  '-used',
  '-fstype',
  '-context',
  '-maxdepth',
  '-mindepth',
  '-printf',
  '-files0-from',
]);

/**
 * The files find opens for writing by itself: `-fprint FILE`, `-fprint0 FILE`, `-fls FILE`,
 * `-fprintf FILE FORMAT` (opened when find starts, whether anything matches or not).
 */
export function findOutputs(args: readonly ShellWord[]): ShellWord[] {
  const outputs: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) continue;
    const text = word.text;
    if (EXEC_ACTIONS.has(text)) {
      while (index + 1 < args.length && !/^[;+]$/.test((args[index + 1] as ShellWord).text)) index++;
      index++;
    } else if (text === '-fprint' || text === '-fprint0' || text === '-fls' || text === '-fprintf') {
      const file = args[index + 1];
      if (file) outputs.push(file);
      index += text === '-fprintf' ? 2 : 1;
    } else if (ONE_ARGUMENT.has(text) || /^-newer[aBcmt][aBcmt]$/.test(text)) index++;
  }
  return outputs;
}
