import { RUN_TIME, SHELL_PROCESS, START } from '../facts/line-facts.js';
import { type ShellWord, literalPrefix } from '../words/shell-word.js';

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
export function startsKnown(word: ShellWord): boolean {
  const first = literalPrefix(word);
  return !word.dynamic || (first !== undefined && first !== '');
}

/** Whether a word is an absolute path (or starts at a home directory) with a known start. */
export const isAbsolute = (word: ShellWord): boolean => /^[/~]/.test(word.text) && startsKnown(word);

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
