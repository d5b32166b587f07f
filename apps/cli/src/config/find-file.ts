import { existsSync, readlinkSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { configError, usageError } from '../output/cli-error.js';

/** File names looked for in the current directory, in this order. */
export const CONFIG_FILE_NAMES: readonly string[] = [
  'toolplane.config.json',
  'toolplane.config.yaml',
  'toolplane.config.yml',
];

/**
 * MCP client files looked for when there is no `toolplane.config.*`, in this order: Claude
 * Code's project file, VS Code's and Cursor's workspace files.
 */
export const CLIENT_CONFIG_FILES: readonly string[] = ['.mcp.json', '.vscode/mcp.json', '.cursor/mcp.json'];

/** Editor folders whose `mcp.json` belongs to the folder that holds them. */
const EDITOR_FOLDERS: ReadonlySet<string> = new Set(['.vscode', '.cursor']);

/**
 * The workspace of a config file: its directory, except for an editor's `mcp.json`
 * (`.vscode/mcp.json`), whose `${workspaceFolder}` is the folder that holds `.vscode`.
 */
export function configDirectory(file: string): string {
  const directory = dirname(file);
  return basename(file) === 'mcp.json' && EDITOR_FOLDERS.has(basename(directory))
    ? dirname(directory)
    : directory;
}

/** The config file found, and the client files seen beside it and not read. */
export interface FoundConfig {
  readonly file: string;
  /** Set when `file` is a client's file found without `--config`: says which and what else was seen. */
  readonly notice?: string;
}

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

/**
 * Finds the config file: `--config` when given, else the first of {@link CONFIG_FILE_NAMES} in
 * `cwd`, else the first of {@link CLIENT_CONFIG_FILES} there (with a notice saying so).
 */
export function findConfigFile(cwd: string, explicit?: string): FoundConfig | undefined {
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
    return { file };
  }
  const found = CONFIG_FILE_NAMES.filter((name) => existsSync(resolve(cwd, name)));
  // two of them: reading the first would ignore edits to the other without a word
  if (found.length > 1)
    throw configError(
      `${found.join(' and ')} are both in ${cwd}; which one is the config?`,
      `remove or rename the one not meant, or name it with --config ${found[0]}`,
    );
  if (found[0] !== undefined) return { file: resolve(cwd, found[0]) };
  const clients = CLIENT_CONFIG_FILES.filter((name) => isFile(resolve(cwd, name)));
  const [first, ...unused] = clients;
  if (first === undefined) return undefined;
  const also = unused.length > 0 ? `; also seen, not read: ${unused.join(', ')}` : '';
  return {
    file: resolve(cwd, first),
    notice: `no toolplane.config.* here: loaded ${first}${also} (name another with --config)`,
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
