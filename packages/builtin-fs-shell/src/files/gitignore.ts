import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Ignore files read in each directory, lowest precedence first (ripgrep's order). */
const IGNORE_FILES = ['.gitignore', '.rgignore'] as const;

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
      rules = Promise.all(
        IGNORE_FILES.map((name) =>
          readFile(join(this.root, directory, name), 'utf8').then(
            (text) => ignore().add(text),
            () => undefined,
          ),
        ),
      ).then((list) => list.filter((rule): rule is Ignore => rule !== undefined));
      this.loaded.set(directory, rules);
    }
    return rules;
  }

  /** {@link rulesOf} without waiting, for engines that read in synchronous slices. */
  rulesOfSync(directory: string): Ignore[] {
    const rules: Ignore[] = [];
    for (const name of IGNORE_FILES) {
      try {
        rules.push(ignore().add(readFileSync(join(this.root, directory, name), 'utf8')));
      } catch {
        // no such file
      }
    }
    return rules;
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
