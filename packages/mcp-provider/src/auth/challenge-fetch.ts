import { authRequiredError, insufficientScopeError } from './auth-required.js';
import { coversScope, readChallenge, sameChallenge, stepUpScope } from './challenge.js';
import type { McpAuth } from './mcp-auth.js';

/**
 * A fetch for the MCP requests of one server that keeps the server's Bearer challenges in the
 * store (the next login answers them, also when `initialize` needed no token), and turns a
 * 403 `insufficient_scope` into `AUTH_REQUIRED` naming the wider scope: a refresh cannot widen
 * a grant, so only a new login can. When the token already holds the scope asked for, the
 * answer is `INSUFFICIENT_SCOPE` instead, which no login cures: step-ups cannot loop.
 */
export function challengeFetch(
  settings: McpAuth,
  server: string,
  serverUrl: string,
  base: typeof fetch,
): typeof fetch {
  const origin = new URL(serverUrl).origin;
  return async (input, init) => {
    const response = await base(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) return response;
    const challenge = readChallenge(response);
    if (!challenge) return response;
    const stored = await settings.read(server);
    const record = stored?.serverUrl === serverUrl ? stored : { serverUrl };
    if (!sameChallenge(record.challenge, challenge)) await settings.write(server, { ...record, challenge });
    if (challenge.status !== 403 || challenge.error !== 'insufficient_scope') return response;
    await response.body?.cancel();
    const granted = record.tokens?.scope ?? record.scope;
    if (coversScope(granted, challenge.scope)) throw insufficientScopeError(server, challenge.scope);
    const scope = stepUpScope(granted, challenge.scope);
    throw authRequiredError(
      server,
      settings.loginCommand(server),
      `the server needs scope "${challenge.scope}", which the stored token lacks (the login asks for "${scope}")`,
      scope ? { scope } : {},
    );
  };
}
