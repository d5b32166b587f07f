import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { errorMessage } from '@toolplane/core';
import type { RawServerEntry } from './formats.js';
import { type McpConfigProblem, createProblem } from './problems.js';

/**
 * Reads the `envFile` of a stdio server (VS Code, Cursor: dotenv lines, `KEY=value`) into its
 * `env`, whose own values win, and removes the field. A relative path is taken from `base`
 * (the workspace folder, or the config file's folder). A remote server's `envFile` is left for
 * the validator, which refuses it as a field of the other kind.
 */
export async function mergeEnvFile(
  server: string,
  entry: RawServerEntry,
  base: string | undefined,
): Promise<McpConfigProblem | undefined> {
  const envFile = entry.envFile;
  if (envFile === undefined || entry.type !== 'stdio') return undefined;
  delete entry.envFile;
  if (envFile === '') return undefined;
  if (typeof envFile !== 'string')
    return createProblem(server, 'envFile', 'must be a string: the path of a file of KEY=value lines');
  if (!isAbsolute(envFile) && base === undefined) {
    return createProblem(
      server,
      'envFile',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder the user can write
      'is a relative path and there is no workspace folder: give an absolute path or ${workspaceFolder}/...',
    );
  }
  const path = isAbsolute(envFile) ? envFile : resolve(base as string, envFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return createProblem(
      server,
      'envFile',
      `cannot be read (${path}): ${errorMessage(error)}: fix the path or remove it`,
    );
  }
  // null prototype: a "__proto__" key stays a key (the validator refuses it by name)
  const env: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(parseEnv(text))) if (value !== undefined) env[name] = value;
  const own = entry.env;
  if (typeof own === 'object' && own !== null && !Array.isArray(own)) {
    for (const [name, value] of Object.entries(own)) env[name] = value;
  } else if (own !== undefined) {
    return undefined; // an env of the wrong shape: the validator names it
  }
  entry.env = env;
  return undefined;
}
