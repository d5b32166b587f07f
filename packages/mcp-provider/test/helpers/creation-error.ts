import { type McpServerConfig, createMcpProvider } from '../../src/index.js';

/**
 * A function giving what `createMcpProvider` throws for a config (and options) of a server named
 * "checked" whose run directory is `runDirectory`, or undefined when it is accepted.
 */
export function creationErrorIn(
  runDirectory: string,
): (config: unknown, options?: Record<string, unknown>) => unknown {
  return (config, options = {}) => {
    try {
      createMcpProvider('checked', config as McpServerConfig, { runDirectory, ...options });
    } catch (error) {
      return error;
    }
    return undefined;
  };
}
