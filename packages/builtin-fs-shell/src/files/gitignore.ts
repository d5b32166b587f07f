import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Ignore files read in each directory, lowest precedence first (ripgrep's order). */
const IGNORE_FILES = ['.gitignore', '.rgignore'] as const;

/**
 * The text of an ignore file, or undefined when there is none to read. Only a regular file
 * counts, reached through a symbolic link too (as ripgrep does, so both grep engines agree; its
 * text only decides what is skipped): the open does not wait (a FIFO named `.gitignore` would
 * block the thread for good), and a FIFO, socket or device is passed over.
 */
function readIgnoreFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function rulesIn(directory: string): Ignore[] {
  const rules: Ignore[] = [];
  for (const name of IGNORE_FILES) {
    const text = readIgnoreFile(join(directory, name));
    if (text !== undefined) rules.push(ignore().add(text));
  }
  return rules;
}

/**
 * `.gitignore` (and ripgrep's `.rgignore`) rules of a directory tree, as git and ripgrep
 * apply them: each file's patterns are relative to its directory, and a deeper file's verdict
 * (ignore or re-include) wins. Files above `root` are not read (the scope of
 * `rg --no-ignore-parent`).
 */
export class GitignoreRules {
  private readonly loaded = new Map<string, Promise<Ignore[]>>();

  constructor(private readonly root: string) {}

  /** The ignore rules defined in one directory (relative to the root; '' for the root). */
  rulesOf(directory: string): Promise<Ignore[]> {
    let rules = this.loaded.get(directory);
    if (!rules) {
      // Read synchronously (ignore files are small, and reads of regular files do not wait),
      // then kept per directory.
      rules = Promise.resolve().then(() => rulesIn(join(this.root, directory)));
      this.loaded.set(directory, rules);
    }
    return rules;
  }

  /**
   * {@link rulesOf} without waiting, for engines that read in synchronous slices; `through` is
   * where the directory is read from (a path through its open descriptor, for a walk that
   * must not follow a directory swapped for a link), by default its path under the root.
   */
  rulesOfSync(directory: string, through = join(this.root, directory)): Ignore[] {
    return rulesIn(through);
  }

  /** Whether one entry is ignored, given that its parent directories are not. */
  async ignoresEntry(relativePath: string, isDirectory: boolean): Promise<boolean> {
    const parts = relativePath.split('/');
    let verdict = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const directory = parts.slice(0, depth).join('/');
      const rest = parts.slice(depth).join('/') + (isDirectory ? '/' : '');
      for (const rules of await this.rulesOf(directory)) {
        const result = rules.test(rest);
        if (result.ignored) verdict = true;
        else if (result.unignored) verdict = false;
      }
    }
    return verdict;
  }

  /** Whether a path is ignored, itself or through any parent directory. */
  async ignoresPath(relativePath: string, isDirectory: boolean): Promise<boolean> {
    const parts = relativePath.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (await this.ignoresEntry(parts.slice(0, i).join('/'), true)) return true;
    }
    return this.ignoresEntry(relativePath, isDirectory);
  }
}
