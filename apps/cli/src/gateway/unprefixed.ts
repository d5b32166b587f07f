import { usageError } from '../output/cli-error.js';
import type { Runtime } from '../runtime/assemble.js';

/**
 * The server whose own names `--no-prefix` keeps: only when the config has exactly one
 * provider, an MCP server (two could name a tool alike).
 */
export function unprefixedServer(runtime: Runtime): string {
  const providers = runtime.providers.map(({ provider }) => provider);
  const only = providers[0];
  if (providers.length !== 1 || !only || only.kind !== 'mcp')
    throw usageError(
      `--no-prefix needs exactly one MCP server in the config, and it has ${providers.length} provider(s)`,
      'remove --no-prefix, or serve a config with one MCP server and no rest, openapi or builtin tools',
    );
  return only.namespace;
}
