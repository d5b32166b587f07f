// `${VAR}` in the paths the CLI resolves itself, as the MCP loader expands it in server entries.
import { homedir } from 'node:os';
import { type ConfigIssue, formatPath } from './issue.js';
import type { ParsedText } from './positions.js';
import type { ToolplaneConfig } from './schema.js';

/** A field that holds a path (or, for `openapi[].source`, a URL). */
interface PathField {
  readonly path: (string | number)[];
  readonly value: string;
  set(value: string): void;
}

function pathFields(config: ToolplaneConfig): PathField[] {
  const fields: PathField[] = [];
  const { builtin } = config;
  if (builtin)
    fields.push({
      path: ['builtin', 'workspace'],
      value: builtin.workspace,
      set: (value) => {
        builtin.workspace = value;
      },
    });
  for (const [index, entry] of (config.rest ?? []).entries())
    if (entry.file !== undefined)
      fields.push({
        path: ['rest', index, 'file'],
        value: entry.file,
        set: (value) => {
          entry.file = value;
        },
      });
  for (const [index, entry] of (config.openapi ?? []).entries())
    fields.push({
      path: ['openapi', index, 'source'],
      value: entry.source,
      set: (value) => {
        entry.source = value;
      },
    });
  return fields;
}

/**
 * Expands `${VAR}`, `${VAR:-default}`, `${workspaceFolder}` (the config's directory) and
 * `${userHome}` in `builtin.workspace`, `rest[].file` and `openapi[].source`, in place, with
 * the MCP loader's rules. A variable without a value is an issue at its field, never left as text
 * (a workspace named `${HOME}/project` would not exist). The loader is imported only when a field
 * holds a placeholder.
 */
export async function expandPaths(
  config: ToolplaneConfig,
  file: string,
  directory: string,
  locate: ParsedText['locate'],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ConfigIssue[]> {
  const fields = pathFields(config).filter((field) => field.value.includes('${'));
  if (fields.length === 0) return [];
  const { interpolate } = await import('@toolplane/mcp-provider');
  const issues: ConfigIssue[] = [];
  for (const field of fields) {
    const outcome = interpolate(field.value, { env, workspaceFolder: directory, userHome: homedir() });
    if (outcome.ok) field.set(outcome.value);
    else
      issues.push({
        file,
        ...locate(field.path),
        path: formatPath(field.path),
        message: `uses ${outcome.missing.join(', ')}, which has no value: set the variable or give a default with \${VAR:-default}`,
      });
  }
  return issues;
}
