import { type LineFacts, SHELL_PROCESS, START } from '../facts/line-facts.js';
import type { ShellWord } from '../words/shell-word.js';
import { throughLinks } from './links.js';
import { inDirectory, normalizePath } from './paths.js';

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
