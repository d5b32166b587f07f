import {
  PROVIDER_SPEC_VERSION,
  type Principal,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  failFromError,
} from '@toolplane/core';
import { authRequiredError } from '@toolplane/mcp-provider';
import type { McpServerRecord } from '../mcp-servers/mcp-server-store.js';
import type { SqlClient } from '../storage/database.js';
import { readKnownTools } from './known-tools.js';
import { linkInstruction } from './login-command.js';
import type { PerUserConnections } from './per-user-connections.js';

/** What the tenant's provider of a per-user server needs. */
export interface PerUserProviderDeps {
  readonly db: SqlClient;
  readonly connections: PerUserConnections;
  /** Called after a call with a connection, to keep the known tool list current. */
  readonly learnTools: (tenantId: string, server: string, tools: readonly ToolSpec[]) => void;
}

/**
 * The provider a tenant's registry holds for an `oauth-per-user` server: it names the tools
 * last listed through any user's connection and runs each call on the calling user's own
 * connection. A principal that is not a user, or a user without a link, gets `AUTH_REQUIRED`.
 */
export function createPerUserProvider(
  tenantId: string,
  record: McpServerRecord,
  deps: PerUserProviderDeps,
): ToolProvider {
  let tools: readonly ToolSpec[] = [];
  const server = record.name;
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'mcp',
    namespace: server,
    async start() {
      tools = await readKnownTools(deps.db, tenantId, server);
    },
    listTools: () => tools,
    async execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const principal = ctx.principal;
      if (principal?.channel !== 'user' || !principal.userId || principal.tenantId !== tenantId)
        return notAUserKey(server, principal);
      const owner = { tenantId, userId: principal.userId };
      try {
        const result = await deps.connections.use(owner, server, record.config, async (connection) => {
          const answer = await connection.provider.execute(name, args, ctx);
          deps.connections.scrub(connection.auth, server);
          deps.learnTools(tenantId, server, await connection.provider.listTools());
          return answer;
        });
        // a refused refresh dropped the tokens: the next call opens anew and finds no link
        if (!result.ok && result.error.code === 'DENIED') await deps.connections.closeUser(owner, server);
        return result;
      } catch (error) {
        return failFromError(error, 'PROVIDER_UNAVAILABLE');
      }
    },
  };
}

/** `AUTH_REQUIRED` for a call by a key that is not a user's: only users link accounts. */
export function notAUserKey(server: string, principal: Principal | undefined): ToolResult {
  return failFromError(
    authRequiredError(
      server,
      linkInstruction(server),
      `its tools run with each user's own login, so only a user key can call them (${principal?.channel ? `this is an ${principal.channel} key` : 'the call has no principal'})`,
    ),
  );
}

/** `AUTH_REQUIRED` for a user who has not linked `server`: the route that starts the login. */
export function notLinked(server: string): ToolResult {
  return failFromError(
    authRequiredError(server, linkInstruction(server), 'you have not linked your account to it yet'),
  );
}
