import { existsSync, readlinkSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { configError, usageError } from '../output/cli-error.js';

/** File names looked for in the current directory, in this order. */
export const CONFIG_FILE_NAMES: readonly string[] = [
  'toolplane.config.json',
  'toolplane.config.yaml',
  'toolplane.config.yml',
];

/** Why a path that does not resolve to anything is missing: a link to nowhere or a link loop is named. */
function whyMissing(file: string): string {
  let target: string;
  try {
    target = readlinkSync(file);
  } catch {
    return 'does not exist';
  }
  try {
    statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return 'is a symbolic link that loops';
  }
  return `is a symbolic link to ${target}, which does not exist`;
}

/** Finds the config file: `--config` when given, else the first of {@link CONFIG_FILE_NAMES} in `cwd`. */
export function findConfigFile(cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) {
    // resolve('') is the directory itself, which would then be called "a directory"
    if (explicit === '')
      throw usageError('--config needs a file name', 'for example --config toolplane.config.yaml');
    const file = resolve(cwd, explicit);
    if (!existsSync(file))
      throw configError(
        `config file ${explicit} ${whyMissing(file)}`,
        'check the path given to --config, or run without it to use ./toolplane.config.json',
      );
    return file;
  }
  const found = CONFIG_FILE_NAMES.filter((name) => existsSync(resolve(cwd, name)));
  // two of them: reading the first would ignore edits to the other without a word
  if (found.length > 1)
    throw configError(
      `${found.join(' and ')} are both in ${cwd}; which one is the config?`,
      `remove or rename the one not meant, or name it with --config ${found[0]}`,
    );
  return found[0] === undefined ? undefined : resolve(cwd, found[0]);
}
