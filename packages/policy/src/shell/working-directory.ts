import { type LineFacts, RUN_TIME, SHELL_PROCESS, START, distinct } from './facts.js';
import { throughLinks } from './links.js';
import { type ShellWord, literalPrefix } from './shell-word.js';

/** A process named under /proc: `self`, `thread-self`, the shell (`$$`) or a number. */
const PROCESS = new RegExp(`^(self|thread-self|${SHELL_PROCESS}|[0-9]+)$`);

/**
 * A path as the kernel resolves it lexically: `//dev/./sda`, `/dev/../dev/sda` and
 * `/proc/self/root/dev/sda` are `/dev/sda`; a relative path keeps the `..` that climb out of its start (`a/../../b` is `../b`).
 */
export function normalizePath(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (!absolute) parts.push('..');
    // `/proc/PID/task/TID/` is thread TID of the process: its root, working directory and
    // descriptors are the process's (`/proc/$$/task/$$/cwd` is `/proc/$$/cwd`).
    if (absolute && parts.length === 4 && parts[0] === 'proc' && parts[2] === 'task')
      if (PROCESS.test(parts[1] as string) && PROCESS.test(parts[3] as string))
        parts.splice(1, 3, /^[0-9]+$/.test(parts[3] as string) ? (parts[1] as string) : (parts[3] as string));
    // `/proc/self/root` (also `thread-self`, a process id) leads back to the root directory.
    if (absolute && parts.length === 3 && parts[0] === 'proc' && parts[2] === 'root')
      if (PROCESS.test(parts[1] as string)) parts.length = 0;
  }
  return absolute ? `/${parts.join('/')}` : parts.join('/') || '.';
}

/** Whether the start of a word is known literal text (so a relative path can be placed). */
function startsKnown(word: ShellWord): boolean {
  const first = literalPrefix(word);
  return !word.dynamic || (first !== undefined && first !== '');
}

const isAbsolute = (word: ShellWord): boolean => /^[/~]/.test(word.text) && startsKnown(word);

/**
 * Where `path` lands when the working directory is `directory`; a path whose start is known
 * only at run time stays as it is.
 */
export function inDirectory(directory: ShellWord, path: ShellWord): ShellWord {
  if (isAbsolute(path) || !startsKnown(path)) return path;
  if (directory === START) return path;
  if (!startsKnown(directory)) return { ...RUN_TIME, text: path.text };
  const joined = `${directory.text}/${path.text}`;
  const dynamic = directory.dynamic || path.dynamic;
  return {
    text: normalizePath(joined),
    dynamic,
    glob: path.glob,
    substitutions: [],
    // The literal start: the directory's, or the directory and the path's own literal start.
    ...(dynamic
      ? {
          parts: [
            directory.dynamic
              ? (directory.parts?.[0] as string)
              : `${directory.text}/${path.dynamic ? (path.parts?.[0] as string) : path.text}`,
          ],
        }
      : {}),
  };
}

/**
 * `/proc/self/cwd/...` (also `thread-self`, and through `task/TID/`): the working directory itself; `/proc/$$/cwd/...` (and
 * `$BASHPID`, read as {@link SHELL_PROCESS}) the working directory of the shell, which a wrapper
 * such as `env -C` does not move.
 */
const OWN_DIRECTORY = new RegExp(
  `^/+proc/+(?:self|thread-self|${SHELL_PROCESS})/+(?:task/+(?:self|thread-self|${SHELL_PROCESS}|[0-9]+)/+)?cwd(?:/+|$)`,
);

const ofShell = (word: ShellWord): boolean => !word.dynamic && word.text.includes(`/${SHELL_PROCESS}/`);

/** A path under `/proc/self/cwd` as the path relative to the working directory it is. */
function fromOwnDirectory(word: ShellWord): ShellWord {
  const start = word.dynamic ? undefined : OWN_DIRECTORY.exec(word.text)?.[0];
  return start === undefined ? word : { ...word, text: normalizePath(word.text.slice(start.length) || '.') };
}

/** The paths a written word may name, placed in every possible working directory. */
export function placedReadings(facts: LineFacts, word: ShellWord): ShellWord[][] | undefined {
  const readings = word.readings;
  const directories = facts.directories;
  const own = !readings && OWN_DIRECTORY.test(word.text);
  if (!readings && !own && directories.length === 1 && directories[0] === START && facts.links.size === 0)
    return undefined;
  const place = (directory: ShellWord, field: ShellWord): ShellWord =>
    throughLinks(facts, inDirectory(directory, fromOwnDirectory(field)));
  const shell = facts.processDirectories ?? directories;
  const out: ShellWord[][] = [];
  for (const fields of readings ?? [[word]])
    for (const directory of directories)
      if (shell === directories || !fields.some(ofShell))
        out.push(fields.map((field) => place(directory, field)));
      else
        for (const shellDirectory of shell)
          out.push(fields.map((field) => place(ofShell(field) ? shellDirectory : directory, field)));
  return out;
}

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
