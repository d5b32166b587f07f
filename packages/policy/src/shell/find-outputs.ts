import type { ShellWord } from './shell-word.js';

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

/** Primaries that run a command up to `;` or `+`. */
const RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

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
    if (RUNS.has(text)) {
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
