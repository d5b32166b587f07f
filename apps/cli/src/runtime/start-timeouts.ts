import type { LoadedMcpConfig } from '@toolplane/mcp-provider';

/** The longest a Node timer holds. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * How much later than `limits.startTimeoutMs` the pipeline stops a start itself. The MCP servers
 * stop theirs at `limits.startTimeoutMs` (see {@link withStartupTimeout}); this is the time
 * their provider gets to stop the server (SIGTERM, then SIGKILL after 1 s) and report why.
 */
export const START_BACKSTOP_MS = 5_000;

/**
 * The pipeline's own start timeout: a backstop {@link START_BACKSTOP_MS} after the limit.
 * Were it the limit itself, it would race the MCP provider's startup timeout (60 s by default,
 * like the limit) and win, and a server that hangs before initialize would be reported as "did
 * not start within 60000 ms", without the stderr the provider's error quotes.
 */
export function pipelineStartTimeout(startTimeoutMs: number): number {
  return Math.min(startTimeoutMs + START_BACKSTOP_MS, MAX_TIMER_MS);
}

/**
 * The MCP servers with `limits.startTimeoutMs` as their startup timeout, or their own when it
 * is shorter: their provider's error ("did not initialize within 3000 ms; ...; stderr: ...")
 * is then the one reported when a server does not start in time.
 */
export function withStartupTimeout(mcp: LoadedMcpConfig, startTimeoutMs: number): LoadedMcpConfig {
  const servers = Object.fromEntries(
    Object.entries(mcp.servers).map(([name, server]) => [
      name,
      { ...server, startupTimeoutMs: Math.min(server.startupTimeoutMs ?? startTimeoutMs, startTimeoutMs) },
    ]),
  );
  return { ...mcp, servers };
}
