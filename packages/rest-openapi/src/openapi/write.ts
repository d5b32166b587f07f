import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ToolError, errorMessage } from '@toolplane/core';
import { stringify as toYaml } from 'yaml';
import type { RestToolConfig } from '../config.js';
import { checkToolConfig } from '../tool-spec.js';
import { parseDocumentText } from './load.js';

/** Options of {@link writeToolConfig}. */
export interface WriteToolConfigOptions {
  /** `json` or `yaml`; default from the file extension (`.yaml`/`.yml` is YAML). */
  readonly format?: 'json' | 'yaml';
}

/**
 * Writes tool configs to a file (JSON or YAML) so a person can review and edit what a model
 * will see; {@link readToolConfig} loads it back. Credentials stay `${ENV}` templates unless
 * literal values were passed to the importer.
 *
 * @example
 * const { tools } = await importOpenApi('./petstore.json', { namespace: 'petstore' });
 * await writeToolConfig('./petstore.tools.yaml', tools);
 */
export async function writeToolConfig(
  path: string,
  tools: Readonly<Record<string, RestToolConfig>>,
  options: WriteToolConfigOptions = {},
): Promise<void> {
  const format = options.format ?? (/\.ya?ml$/i.test(path) ? 'yaml' : 'json');
  // never write a file readToolConfig would refuse
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    throw new ToolError('CONFIG_INVALID', 'tools must be an object of tool configs by name');
  }
  for (const [name, config] of Object.entries(tools)) checkToolConfig(name, config);
  // shared sub-schemas are written out in full; aliases would make the file hard to edit
  let text: string;
  try {
    text =
      format === 'yaml'
        ? toYaml({ tools }, { aliasDuplicateObjects: false, lineWidth: 0 })
        : `${JSON.stringify({ tools }, null, 2)}\n`;
  } catch (error) {
    throw new ToolError(
      'CONFIG_INVALID',
      `the tool configs cannot be written as ${format}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  // a temporary file renamed over the target: a reviewed file is replaced whole or not at all
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    // the destination is the caller's argument; the configs themselves were checked above
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `cannot write the tool config ${path}: ${writeFailure(error)}; give a file path in an existing, writable directory`,
      { cause: error },
    );
  }
}

/** Why a write failed, in words (the temporary file's name in a raw message would only confuse). */
function writeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'its directory does not exist';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission denied';
  return errorMessage(error);
}

/** Reads a tool config file written by {@link writeToolConfig} (or by hand) and checks every tool. */
export async function readToolConfig(path: string): Promise<Record<string, RestToolConfig>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolError('CONFIG_INVALID', `cannot read the tool config ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const parsed = parseDocumentText(text, path) as { tools?: unknown } | null;
  const tools = parsed?.tools;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    throw new ToolError('CONFIG_INVALID', `${path} must hold an object { "tools": { "<name>": { ... } } }`);
  }
  for (const [name, config] of Object.entries(tools)) checkToolConfig(name, config as RestToolConfig);
  return tools as Record<string, RestToolConfig>;
}
