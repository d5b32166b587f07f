import { ToolError } from '@toolplane/core';
import type { ConnectionState } from './connection-types.js';

/** `PROVIDER_UNAVAILABLE` for a server that cannot serve now, saying why. */
export function unavailableError(server: string, state: ConnectionState, why: string): ToolError {
  return new ToolError('PROVIDER_UNAVAILABLE', `MCP server "${server}" is unavailable: ${why}`, {
    details: { server, state },
  });
}

/** `CANCELLED` for a caller who stopped waiting on a server's start. */
export function cancelledStartError(server: string): ToolError {
  return new ToolError('CANCELLED', `MCP server "${server}": the start was cancelled by the caller`, {
    details: { server },
  });
}
