import { ToolError } from '@toolplane/core';
import { serverConfigProblems } from './config/load.js';
import { shownServerName } from './config/problems.js';
import { serverNameProblem } from './config/server-name.js';
import type { McpServerConfig } from './config/types.js';
import { checkProviderOptions } from './provider-options.js';
import type { McpProviderOptions } from './provider-types.js';

/**
 * Throws `CONFIG_INVALID` for a server name, options or config that `createMcpProvider` cannot
 * use, naming the field, before anything is created.
 */
export function checkProviderArguments(
  name: string,
  config: McpServerConfig,
  options: McpProviderOptions,
): void {
  const nameProblem = serverNameProblem(name);
  if (nameProblem !== undefined) {
    const shown = typeof name === 'string' ? `MCP server ${shownServerName(name)} ` : 'MCP server ';
    throw new ToolError('CONFIG_INVALID', `${shown}${nameProblem}`, {
      details: { ...(typeof name === 'string' ? { server: name } : {}), field: 'name' },
    });
  }
  checkProviderOptions(name, options);
  const configProblems = serverConfigProblems(name, config);
  if (configProblems.length > 0) {
    throw new ToolError('CONFIG_INVALID', configProblems.map((problem) => problem.message).join('; '), {
      details: { server: name, ...(configProblems[0]?.field ? { field: configProblems[0].field } : {}) },
    });
  }
}
