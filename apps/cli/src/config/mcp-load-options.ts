import type { LoadMcpConfigOptions } from '@toolplane/mcp-provider';

/** The prefix of the variables that give VS Code `${input:id}` placeholders their values. */
export const INPUT_ENV_PREFIX = 'TOOLPLANE_INPUT_';

/** The variable that holds input `id`: `api-key` is `TOOLPLANE_INPUT_API_KEY`. */
export function inputVariable(id: string): string {
  return `${INPUT_ENV_PREFIX}${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

const INPUT_PLACEHOLDER = /\$\{\s*input:([^}]*)\}/g;

/** The ids `${input:id}` placeholders name anywhere in `document`. */
function inputIds(document: unknown): Set<string> {
  const ids = new Set<string>();
  const text = JSON.stringify(document ?? null);
  for (const match of text.matchAll(INPUT_PLACEHOLDER)) ids.add((match[1] as string).trim());
  return ids;
}

/**
 * How the CLI loads the MCP servers of `document`: `${workspaceFolder}` is `directory`, and an
 * input (`${input:id}`) takes its value from `TOOLPLANE_INPUT_<ID>` when that is set, before the
 * input's default; an input with neither (VS Code would prompt for it) is a problem that names
 * the variable.
 */
export function mcpLoadOptions(
  document: unknown,
  directory: string,
  env: NodeJS.ProcessEnv = process.env,
): LoadMcpConfigOptions {
  const inputs: Record<string, string> = Object.create(null);
  for (const id of inputIds(document)) {
    const value = env[inputVariable(id)];
    if (value !== undefined) inputs[id] = value;
  }
  return { workspaceFolder: directory, inputs, inputHint: (id) => `set ${inputVariable(id)} to its value` };
}
