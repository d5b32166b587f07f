import type { ToolResult } from '@toolplane/core';
import { toCorePrincipal } from '../auth/core-principal.js';
import type { ServerPrincipal } from '../auth/principal.js';
import type { GrantDecision } from '../grants/evaluator.js';
import type { PerUserMcp } from './per-user-mcp.js';
import { notAUserKey, notLinked } from './per-user-provider.js';

/** A per-user OAuth server that waits for the calling user's link, as the tool list names it. */
export interface LinkNeeded {
  readonly server: string;
  /** The route that starts the user's login. */
  readonly start: string;
}

/** What the tenant runtime lends: its grant decision and the names of its registered tools. */
export interface UnlinkedServersDeps {
  readonly tenantId: string;
  readonly servers: readonly string[];
  readonly perUserMcp: PerUserMcp;
  readonly decide: (principal: ServerPrincipal, tool: { name: string }) => GrantDecision;
  readonly registered: () => readonly string[];
}

/**
 * The tenant's per-user OAuth servers as seen by a principal who may not have linked them: a
 * call to a tool they do not list yet answers `AUTH_REQUIRED` (not `TOOL_NOT_FOUND`), and the
 * tool list names the servers that wait for the user's link. Only servers the principal's
 * grants reach count, so nothing is named to a principal who may not use it.
 */
export class UnlinkedServers {
  private readonly servers: ReadonlySet<string>;

  constructor(private readonly deps: UnlinkedServersDeps) {
    this.servers = new Set(deps.servers);
  }

  /** The answer to a call of `name` that found no tool; undefined to keep `TOOL_NOT_FOUND`. */
  async answerFor(principal: ServerPrincipal, name: string): Promise<ToolResult | undefined> {
    const separator = name.indexOf('__');
    const server = separator > 0 ? name.slice(0, separator) : '';
    if (!this.servers.has(server) || !this.deps.decide(principal, { name }).allowed) return undefined;
    if (principal.kind !== 'user') return notAUserKey(server, toCorePrincipal(principal));
    const linked = await this.deps.perUserMcp.hasLink(
      { tenantId: this.deps.tenantId, userId: principal.id },
      server,
    );
    return linked ? undefined : notLinked(server);
  }

  /** The servers a user's grants reach that this user has not linked; none for other keys. */
  async waiting(principal: ServerPrincipal): Promise<LinkNeeded[]> {
    if (principal.kind !== 'user') return [];
    const owner = { tenantId: this.deps.tenantId, userId: principal.id };
    const registered = this.deps.registered();
    const waiting: LinkNeeded[] = [];
    for (const server of this.servers) {
      const prefix = `${server}__`;
      const reached =
        this.deps.decide(principal, { name: `${prefix}*` }).allowed ||
        registered.some((name) => name.startsWith(prefix) && this.deps.decide(principal, { name }).allowed);
      if (reached && !(await this.deps.perUserMcp.hasLink(owner, server)))
        waiting.push({ server, start: `POST /v1/mcp-servers/${server}/oauth/start` });
    }
    return waiting;
  }
}
