// Problems of MCP server entries (the MCP provider's loader finds them) as config issues.
import type { McpConfigProblem } from '@toolplane/mcp-provider';
import { type ConfigIssue, formatPath } from './issue.js';
import type { ParsedText } from './positions.js';
import { mcpLoadOptions } from './mcp-load-options.js';

/** An MCP loader problem as a config issue at its place under `mcpServers`. */
export function mcpProblemIssue(
  file: string,
  problem: McpConfigProblem,
  locate: ParsedText['locate'],
  key = 'mcpServers',
): ConfigIssue {
  const path: (string | number)[] = [key, problem.server];
  for (const match of (problem.field ?? '').matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) path.push(Number(match[2]));
    else if (match[1] !== undefined) path.push(match[1]);
  }
  return { file, ...locate(path), path: formatPath(path), message: problem.message };
}

/**
 * `mcpServers` of our own file is checked as the MCP provider checks its own format (`servers`):
 * an unknown key of an entry (`comand`, `envs`, `toolAllowed`) is a typo that would be dropped
 * silently if the entries were read as a client's file. When there is one, every problem of the
 * servers is returned (the typos first); undefined when the strict reading finds nothing more.
 */
export async function ownFormatIssues(
  file: string,
  servers: Record<string, unknown>,
  directory: string,
  locate: ParsedText['locate'],
): Promise<ConfigIssue[] | undefined> {
  const { loadMcpConfig } = await import('@toolplane/mcp-provider');
  const options = mcpLoadOptions(servers, directory);
  const [strict, lenient] = await Promise.all([
    loadMcpConfig({ servers }, options),
    loadMcpConfig({ mcpServers: servers }, options),
  ]);
  const known = new Set(lenient.problems.map((problem) => problem.message));
  const typos = strict.problems.filter((problem) => !known.has(problem.message));
  if (typos.length === 0) return undefined;
  const rest = strict.problems.filter((problem) => known.has(problem.message));
  return [...typos, ...rest].map((problem) => mcpProblemIssue(file, problem, locate));
}
