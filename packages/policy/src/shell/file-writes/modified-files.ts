import type { SimpleCommand } from '../command-line-analysis.js';
import { type ShellWord, sliceWord, staticWord } from '../words/shell-word.js';

/** A file a command changes by its arguments, beyond the outputs of `program-writes.ts`. */
export interface ModifiedFile {
  readonly word: ShellWord;
  /** The command changes what the file holds (`mv`, `sed -i`), not only its mode or times. */
  readonly changesText: boolean;
}

const operandsOf = (args: readonly ShellWord[]): ShellWord[] => {
  const out: ShellWord[] = [];
  let optionsDone = false;
  for (const word of args) {
    if (!optionsDone && word.text === '--' && !word.dynamic) optionsDone = true;
    else if (optionsDone || word.dynamic || !word.text.startsWith('-') || word.text === '-') out.push(word);
  }
  return out;
};

/** `--target-directory=DIR`, `-t DIR`, `-tDIR`: the directory files are put in. */
function targetDirectory(args: readonly ShellWord[]): ShellWord | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) continue;
    if (/^--target-directory=/.test(word.text)) return sliceWord(word, word.text.indexOf('=') + 1);
    if (word.text === '-t' || word.text === '--target-directory') return args[index + 1];
    if (/^-t./.test(word.text)) return sliceWord(word, 2);
  }
  return undefined;
}

/** `mv SRC... DEST`: the sources go away and the destination is written; `ln` makes its last operand. */
function moved(args: readonly ShellWord[], sourcesToo: boolean): ShellWord[] {
  const target = targetDirectory(args);
  const operands = operandsOf(args).filter((word) => word !== target);
  if (target) return sourcesToo ? [target, ...operands] : [target];
  if (operands.length === 1) {
    // `ln -s /x/.bashrc` makes `.bashrc` in the working directory.
    const only = operands[0] as ShellWord;
    return only.dynamic ? [] : [staticWord(only.text.replace(/\/+$/, '').replace(/^.*\//, ''))];
  }
  if (sourcesToo) return operands;
  const last = operands[operands.length - 1];
  return last ? [last] : [];
}

/** `sed -i SCRIPT FILE...`, `perl -pi -e CODE FILE...`: the files edited in place; none without `-i`. */
function editedInPlace(args: readonly ShellWord[], program: 'sed' | 'perl'): ShellWord[] {
  let inPlace = false;
  let codeGiven = false;
  const files: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    const text = word.text;
    if (word.dynamic || !text.startsWith('-') || text === '-') {
      files.push(word);
      continue;
    }
    if (text.startsWith('--')) {
      if (/^--in-place(=|$)/.test(text)) inPlace = true;
      if (/^--(expression|file)(=|$)/.test(text)) {
        codeGiven = true;
        if (!text.includes('=')) index++;
      }
      continue;
    }
    const letters = text.slice(1);
    if (program === 'sed') {
      // `-i.bak`: -i takes its suffix attached; `-e SCRIPT`, `-f FILE`, `-l N` take the next word.
      const valueAt = letters.search(/[efl]/);
      const inPlaceAt = letters.indexOf('i');
      if (inPlaceAt >= 0 && (valueAt < 0 || inPlaceAt < valueAt)) inPlace = true;
      if (valueAt >= 0) {
        if ('ef'.includes(letters[valueAt] as string)) codeGiven = true;
        if (valueAt === letters.length - 1) index++;
      }
    } else {
      // perl: `-i[ext]`, `-e CODE` (also in a cluster `-pie`), `-I DIR`, `-M MOD`.
      const valueAt = letters.search(/[eEIMmx]/);
      if (letters.includes('i') && (valueAt < 0 || letters.indexOf('i') < valueAt)) inPlace = true;
      if (valueAt >= 0) {
        if ('eE'.includes(letters[valueAt] as string)) codeGiven = true;
        if (valueAt === letters.length - 1) index++;
      }
    }
  }
  if (!inPlace) return [];
  return codeGiven ? files : files.slice(1);
}

/** `git [-C DIR] config ...` that changes a config file: the file it writes. */
function gitConfigWrite(args: readonly ShellWord[]): ShellWord[] {
  let directory = '';
  let index = 0;
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return [];
    if (word.text === '-C') directory = `${args[++index]?.text ?? ''}/`;
    else if (word.text === '-c' || word.text === '--git-dir' || word.text === '--work-tree') index++;
    else if (!word.text.startsWith('-')) break;
  }
  if (args[index]?.text !== 'config') return [];
  const rest = args.slice(index + 1);
  const texts = rest.map((word) => word.text);
  const sub = texts.find((text) => !text.startsWith('-'));
  // `git config get|list`, `--get`, `--list`, a key alone: reads.
  const reads = ['get', 'list'].includes(sub ?? '') && !texts.some((text) => /^--?(e$|edit$)/.test(text));
  const writesBy = texts.some((text) =>
    /^(--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)|-e)$/.test(text),
  );
  // Operands, without the values of options that take one (`--file F`, `--type bool`).
  const operands = rest.filter((word, at) => {
    if (word.text.startsWith('-') && !word.dynamic) return false;
    return !/^(--file|-f|--blob|--type|--default|--comment)$/.test(rest[at - 1]?.text ?? '');
  });
  const readsOnly = texts.some((text) =>
    /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list)$|^-l$/.test(text),
  );
  const newWrite = ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(sub ?? '');
  if (reads || (readsOnly && !writesBy) || (!writesBy && !newWrite && operands.length < 2)) return [];
  const file = rest.findIndex((word) => word.text === '--file' || word.text === '-f');
  const named = rest.find((word) => /^--file=/.test(word.text));
  if (named) return [sliceWord(named, '--file='.length)];
  if (file >= 0) return rest[file + 1] ? [rest[file + 1] as ShellWord] : [];
  if (texts.includes('--global')) return [staticWord('~/.gitconfig')];
  if (texts.includes('--system')) return [staticWord('/etc/gitconfig')];
  return [staticWord(`${directory}.git/config`)];
}

/**
 * The files a command changes by its arguments that `program-writes.ts` does not list (they are
 * not device writes): `mv` (sources and destination), `ln` (the link made), `rsync` (the
 * destination), `sed -i` and `perl -i` (the files edited), `truncate`, `git config` (the config
 * file it changes), and `chmod`, `chown`, `chgrp`, `touch`, which change a file's mode, owner
 * or times (every operand: a mode or owner is never a protected path).
 */
export function modifiedFiles(command: SimpleCommand): ModifiedFile[] {
  const args = command.args;
  const text = (words: readonly ShellWord[], changesText = true): ModifiedFile[] =>
    words.map((word) => ({ word, changesText }));
  switch (command.name) {
    case 'mv':
      return text(moved(args, true));
    case 'ln':
      return text(moved(args, false));
    case 'rsync': {
      const operands = operandsOf(args);
      return operands.length >= 2 ? text(operands.slice(-1)) : [];
    }
    case 'sed':
    case 'gsed':
      return text(editedInPlace(args, 'sed'));
    case 'perl':
      return text(editedInPlace(args, 'perl'));
    case 'truncate':
      return text(operandsOf(args));
    case 'git':
      return text(gitConfigWrite(args));
    case 'chmod':
    case 'chown':
    case 'chgrp':
    case 'touch':
    case 'setfacl':
    case 'chattr':
      return text(operandsOf(args), false);
    default:
      return [];
  }
}
