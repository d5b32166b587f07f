import { ToolError } from '@toolplane/core';

/** Why one server of a config cannot be used. */
export interface McpConfigProblem {
  /** The server's name as written in the file. */
  readonly server: string;
  /** The field at fault (`command`, `headers.Authorization`), when one is. */
  readonly field?: string;
  /** What is wrong and what to do, naming the server and the field. */
  readonly message: string;
}

/** A problem as a `CONFIG_INVALID` error. */
export function problemToError(problem: McpConfigProblem): ToolError {
  return new ToolError('CONFIG_INVALID', problem.message, {
    details: { server: problem.server, ...(problem.field ? { field: problem.field } : {}) },
  });
}

/**
 * A server name as a message shows it: quoted as JSON (a line break or a control character is
 * escaped) and cut to 64 characters (a name may be a megabyte long).
 */
export function shownServerName(server: string): string {
  return JSON.stringify(server.length > 64 ? `${server.slice(0, 64)}...` : server);
}

/** A problem with the server and field named in its message. */
export function createProblem(server: string, field: string | undefined, what: string): McpConfigProblem {
  const name = shownServerName(server);
  const where = field ? `MCP server ${name}: ${field} ${what}` : `MCP server ${name}: ${what}`;
  return field ? { server, field, message: where } : { server, message: where };
}
