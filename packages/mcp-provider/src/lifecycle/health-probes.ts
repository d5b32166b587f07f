import { errorMessage } from '@toolplane/core';
import { MCP_DEFAULTS, type McpServerConfig } from '../config/types.js';
import type { McpSession } from '../session/session.js';

/**
 * Sends the configured health probe (`ping` or `listTools`) to `session` every
 * `healthIntervalMs`, one at a time, while `isCurrent()` holds. A probe that fails while the
 * session is still current is told to `onFailed` with the reason. Returns the function that
 * stops the probes, or undefined when they are off (`healthProbe: 'none'`, interval 0).
 */
export function startHealthProbes(
  session: McpSession,
  config: McpServerConfig,
  isCurrent: () => boolean,
  onFailed: (reason: string) => void,
): (() => void) | undefined {
  const probe = config.healthProbe ?? 'ping';
  const interval = config.healthIntervalMs ?? MCP_DEFAULTS.healthIntervalMs;
  if (probe === 'none' || interval <= 0) return undefined;
  const timeoutMs = Math.min(config.requestTimeoutMs ?? MCP_DEFAULTS.requestTimeoutMs, 30_000);
  let running = false;
  const timer = setInterval(() => {
    if (running || !isCurrent()) return;
    running = true;
    const request =
      probe === 'listTools' ? session.listToolsPage(undefined, { timeoutMs }) : session.ping({ timeoutMs });
    request
      .catch((error: unknown) => {
        if (!isCurrent()) return;
        onFailed(`health probe (${probe}) failed: ${errorMessage(error)}`);
      })
      .finally(() => {
        running = false;
      });
  }, interval);
  timer.unref?.();
  return () => clearInterval(timer);
}
