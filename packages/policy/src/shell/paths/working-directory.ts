import { type LineFacts, RUN_TIME, distinct } from '../facts/line-facts.js';
import type { ShellWord } from '../words/shell-word.js';
import { inDirectory, isAbsolute, startsKnown } from './paths.js';

/** Longest working directory followed (Linux's PATH_MAX). */
const MAX_PATH = 4096;

/** Deepest `pushd` stack followed. */
const MAX_STACK = 64;

/** `cd` options that take no value. */
const CD_OPTIONS = /^-[LPe@]+$/;

function target(args: readonly ShellWord[]): ShellWord | undefined {
  let index = 0;
  while (index < args.length) {
    const word = args[index] as ShellWord;
    if (word.dynamic) break;
    if (word.text === '--') {
      index++;
      break;
    }
    if (!CD_OPTIONS.test(word.text)) break;
    index++;
  }
  return args[index];
}

/** Where `cd word` may lead from each of the directories now possible (CDPATH included). */
function destinations(facts: LineFacts, word: ShellWord): ShellWord[] {
  const values = word.readings?.map((fields) => fields[0] ?? RUN_TIME) ?? [word];
  const out: ShellWord[] = [];
  const cdpath = facts.variables.get('CDPATH');
  for (const value of values) {
    if (!startsKnown(value)) {
      out.push(RUN_TIME);
      continue;
    }
    for (const directory of facts.directories) out.push(inDirectory(directory, value));
    // CDPATH is searched for a relative name that does not start with `.` or `..`.
    if (cdpath && !isAbsolute(value) && !value.text.startsWith('.'))
      for (const entry of cdpath)
        for (const base of entry.text.split(':'))
          if (base !== '') out.push(inDirectory({ ...entry, text: base }, value));
  }
  // A directory longer than PATH_MAX cannot be entered; a bound on the work `cd a; cd a; ...` causes.
  if (out.some((directory) => directory.text.length > MAX_PATH)) {
    facts.overflow = true;
    return [RUN_TIME];
  }
  return out.length > 0 ? distinct(facts, out) : [RUN_TIME];
}

/**
 * Follows `cd`, `pushd` and `popd`: the directories relative paths are written in afterwards.
 * `cd` alone goes home and `cd -` back; a directory named at run time is unknown.
 */
export function changeDirectory(facts: LineFacts, name: string, args: readonly ShellWord[]): void {
  const before = facts.directories;
  if (name === 'popd') {
    if (args.some((word) => word.dynamic || word.text !== '--')) {
      // `popd +N` / `-n` change the stack only, or another entry: any of them may be current.
      facts.directories = distinct(facts, [...before, ...facts.stack.flat()]);
      return;
    }
    facts.directories = facts.stack[facts.stack.length - 1] ?? [RUN_TIME];
    facts.stack = facts.stack.slice(0, -1);
    facts.previous = before;
    return;
  }
  const word = target(args);
  if (name === 'pushd') {
    if (!word || (!word.dynamic && /^[+-][0-9]+$/.test(word.text))) {
      // `pushd` swaps the two top entries; `pushd +N` rotates the stack.
      const top = facts.stack[facts.stack.length - 1];
      facts.directories = word ? distinct(facts, [...before, ...facts.stack.flat()]) : (top ?? before);
      if (!word && top) facts.stack = [...facts.stack.slice(0, -1), before];
      return;
    }
    if (facts.stack.length >= MAX_STACK) facts.overflow = true;
    else facts.stack = [...facts.stack, before];
  }
  if (!word) facts.directories = [RUN_TIME];
  else if (!word.dynamic && word.text === '-') facts.directories = facts.previous;
  else facts.directories = destinations(facts, word);
  facts.previous = before;
}

/** Runs `walk` for a command a wrapper starts in another directory (`env -C DIR`, `sudo -D DIR`). */
export function inWrapperDirectory(
  facts: LineFacts,
  directory: ShellWord | undefined,
  walk: () => void,
): void {
  if (!directory) {
    walk();
    return;
  }
  const { directories, previous, processDirectories } = facts;
  // The shell that started the command stays where it was (`/proc/$BASHPID/cwd`).
  facts.processDirectories ??= directories;
  facts.directories = destinations(facts, directory);
  walk();
  facts.directories = directories;
  facts.previous = previous;
  facts.processDirectories = processDirectories;
}
