import { authTimeoutFetch } from './auth-fetch.js';
import type { McpAuth } from './mcp-auth.js';
import { probeAuth } from './probe.js';

/** Whether a remote server needs a login: what `doctor` reports. */
export type McpAuthState = 'logged-in' | 'login-required' | 'not-required' | 'unreachable';

/** The login state of `server`, with the command that logs in when one is needed. */
export async function mcpAuthStatus(
  settings: McpAuth,
  server: string,
  serverUrl: string,
  fetchFn: typeof fetch = fetch,
): Promise<{ readonly state: McpAuthState; readonly command: string; readonly detail?: string }> {
  const command = settings.loginCommand(server);
  const record = await settings.read(server);
  if (record?.serverUrl === serverUrl && record.tokens) return { state: 'logged-in', command };
  // a call met a challenge (a server whose initialize needs no token asks for one later)
  if (record?.serverUrl === serverUrl && record.challenge) return { state: 'login-required', command };
  try {
    const probe = await probeAuth(serverUrl, authTimeoutFetch(fetchFn, settings.requestTimeoutMs));
    return { state: probe.required ? 'login-required' : 'not-required', command };
  } catch (error) {
    return { state: 'unreachable', command, detail: error instanceof Error ? error.message : String(error) };
  }
}
