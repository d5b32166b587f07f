import { statSync } from 'node:fs';
import { errorMessage } from '@toolplane/core';
import type { McpStdioServerConfig } from '../config/types.js';

/**
 * Why a server process could not be started. Node reports a missing working directory as
 * `spawn <command> ENOENT`, as if the command were missing: with a `cwd`, it is looked at
 * first, and a `cwd` that does not exist or is not a directory is named.
 */
export function spawnFailure(config: McpStdioServerConfig, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (config.cwd !== undefined && (code === 'ENOENT' || code === 'ENOTDIR')) {
    let problem: string | undefined;
    try {
      if (!statSync(config.cwd).isDirectory()) problem = 'is not a directory (cwd): point cwd at a directory';
    } catch {
      problem = 'does not exist (cwd): create it or fix cwd';
    }
    if (problem)
      return new Error(`cannot start "${config.command}": its working directory "${config.cwd}" ${problem}`);
  }
  return new Error(`cannot start "${config.command}": ${errorMessage(error)}`);
}
