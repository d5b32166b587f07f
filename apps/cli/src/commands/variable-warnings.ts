import { isAbsolute, resolve } from 'node:path';
import type { ConfigIssue } from '../config/issue.js';
import type { LoadedConfig } from '../config/load.js';
import {
  type ConfigVariable,
  openApiEntryVariables,
  restEntryVariables,
} from '../config/provider-variables.js';

/**
 * `config validate`'s warnings about environment variables that REST and OpenAPI entries read
 * (`headers`, `credentials`, `baseUrl`, a tool file's `${VAR}`) and that are not set: the
 * config is valid, but every call that needs one fails.
 */
export async function unsetVariableWarnings(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ConfigIssue[]> {
  const { config } = loaded;
  if (!config.rest?.length && !config.openapi?.length) return [];
  const at = (path: string): string => (isAbsolute(path) ? path : resolve(loaded.directory, path));
  const variables: ConfigVariable[] = [];
  const rest = config.rest?.length ? await import('@toolplane/rest-openapi') : undefined;
  for (const [index, entry] of (config.rest ?? []).entries()) {
    // a file that does not read is an issue of its own (deepIssues)
    const fileTools =
      entry.file === undefined || !rest
        ? undefined
        : await rest.readToolConfig(at(entry.file)).catch(() => undefined);
    variables.push(...restEntryVariables(config, index, fileTools));
  }
  for (const index of (config.openapi ?? []).keys()) variables.push(...openApiEntryVariables(config, index));
  const seen = new Set<string>();
  const file = loaded.file ?? '';
  const out: ConfigIssue[] = [];
  for (const { variable, key, path } of variables) {
    if (env[variable] !== undefined || seen.has(`${variable} ${key}`)) continue;
    seen.add(`${variable} ${key}`);
    out.push({
      file,
      ...loaded.locate([...path]),
      path: key,
      message: `environment variable ${variable} is not set, and ${key} reads it: calls that need it fail with CONFIG_INVALID; set ${variable} in the environment toolplane runs in`,
    });
  }
  return out;
}
