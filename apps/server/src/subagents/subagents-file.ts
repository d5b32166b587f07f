import { readFileSync } from 'node:fs';
import { ToolError } from '@toolplane/core';
import type { ServerSubagentOptions } from './subagent-options.js';

/**
 * Reads `TOOLPLANE_SUBAGENTS_FILE`: `{ "agents": [...], "endpoint": { "baseUrl", "model" },
 * "limits": {...} }` (the endpoint's key comes from `OPENAI_API_KEY`, never from the file).
 */
export function readSubagentsFile(path: string): ServerSubagentOptions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ToolError(
      'CONFIG_INVALID',
      `TOOLPLANE_SUBAGENTS_FILE ${path} is not a readable JSON file: ${(cause as Error).message}`,
      { cause },
    );
  }
  const file = parsed as Partial<ServerSubagentOptions> | null;
  if (typeof file !== 'object' || file === null || !Array.isArray(file.agents))
    throw new ToolError(
      'CONFIG_INVALID',
      `TOOLPLANE_SUBAGENTS_FILE ${path} must hold an object with an "agents" array of subagent definitions`,
    );
  if (file.endpoint !== undefined && (typeof file.endpoint !== 'object' || 'apiKey' in file.endpoint))
    throw new ToolError(
      'CONFIG_INVALID',
      `TOOLPLANE_SUBAGENTS_FILE ${path}: "endpoint" is an object of baseUrl and model; put the key in OPENAI_API_KEY, not in the file`,
    );
  return {
    agents: file.agents,
    ...(file.endpoint ? { endpoint: file.endpoint } : {}),
    ...(file.limits ? { limits: file.limits } : {}),
  };
}
