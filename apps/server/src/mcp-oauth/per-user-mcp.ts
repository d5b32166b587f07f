import { ToolError, type ToolProvider, type ToolSpec } from '@toolplane/core';
import {
  type McpAuthRedirect,
  createMemoryTokenStore,
  loginMcpServer,
  logoutMcpServer,
} from '@toolplane/mcp-provider';
import { ApiError } from '../http/api-error.js';
import type { McpServerRecord } from '../mcp-servers/mcp-server-store.js';
import type { SqlClient } from '../storage/database.js';
import { writeKnownTools } from './known-tools.js';
import type { PerUserConnections } from './per-user-connections.js';
import { createPerUserProvider } from './per-user-provider.js';
import { PendingLogins } from './pending-logins.js';
import type { TokenOwner } from './user-token-store.js';

/** Options of {@link PerUserMcp}. */
export interface PerUserMcpOptions {
  readonly db: SqlClient;
  readonly connections: PerUserConnections;
  /** How long a started login waits for the browser to come back. */
  readonly loginTtlMs: number;
  /** The callback URL the authorization server sends the browser to. */
  readonly callbackUrl: () => string;
  /** Rebuilds the tenant's tools (the known tool list of a server changed). */
  readonly reloadTools: (tenantId: string) => Promise<void>;
  readonly onError: (message: string) => void;
}

const restart = (server: string): string => `start again with POST /v1/mcp-servers/${server}/oauth/start`;

/**
 * Per-user OAuth for remote MCP servers: starts a user's login, finishes it at the callback,
 * unlinks, and gives each tenant runtime the provider that routes calls to the calling user's
 * own connection.
 */
export class PerUserMcp {
  private readonly logins: PendingLogins;

  constructor(private readonly options: PerUserMcpOptions) {
    this.logins = new PendingLogins(options.loginTtlMs);
  }

  /** The provider a tenant runtime registers for `record`. */
  providerFor(tenantId: string, record: McpServerRecord): ToolProvider {
    return createPerUserProvider(tenantId, record, {
      db: this.options.db,
      connections: this.options.connections,
      learnTools: (tenant, server, tools) => {
        this.learnTools(tenant, server, tools).catch((error: unknown) =>
          this.options.onError(`storing the tool list of MCP server "${server}" failed: ${String(error)}`),
        );
      },
    });
  }

  private async learnTools(tenantId: string, server: string, tools: readonly ToolSpec[]): Promise<void> {
    if (await writeKnownTools(this.options.db, tenantId, server, tools))
      await this.options.reloadTools(tenantId);
  }

  /**
   * Starts `owner`'s login to `record`'s server: discovery and registration through the
   * mcp-provider library; resolves with the URL the user opens. A link already stored stays in
   * use until the new login completes, and stays when it is abandoned.
   */
  async start(owner: TokenOwner, record: McpServerRecord): Promise<URL> {
    const config = record.config;
    if (!('url' in config))
      throw new ApiError(
        400,
        'INVALID_ARGUMENTS',
        'oauth_not_remote',
        `MCP server "${record.name}" is not remote`,
      );
    const stored = this.options.connections.authFor(owner);
    const previous = await stored.store.read(record.name);
    // the login works on a copy without tokens: a new link is a new authorization (another
    // account, say), never a silent refresh, and the stored link stays until the new one is made
    const staging = createMemoryTokenStore();
    if (previous) {
      const { tokens: _dropped, ...rest } = previous;
      await staging.write(record.name, rest);
    }
    const auth = this.options.connections.authWith(staging);
    let deliver: (redirect: McpAuthRedirect) => void = () => {};
    let abandon: (why: string) => void = () => {};
    const redirect = new Promise<McpAuthRedirect>((resolve, reject) => {
      deliver = resolve;
      abandon = (why) => reject(new ToolError('DENIED', `${why}: ${restart(record.name)}`));
    });
    redirect.catch(() => {});
    let shown: (url: URL) => void = () => {};
    const urlShown = new Promise<URL>((resolve) => {
      shown = resolve;
    });
    const login = loginMcpServer({
      auth,
      server: record.name,
      serverUrl: config.url,
      redirectUrl: this.options.callbackUrl(),
      onAuthorizationUrl: (url) => shown(url),
      waitForRedirect: () => redirect,
    });
    const finished = login.then(async () => {
      this.options.connections.scrub(auth, record.name);
      const made = await staging.read(record.name);
      if (!made?.tokens) throw new ToolError('DENIED', 'the code exchange stored no tokens');
      await stored.store.write(record.name, made);
    });
    finished.catch(() => this.options.connections.scrub(auth, record.name));
    let first: URL | Awaited<typeof login>;
    try {
      first = await Promise.race([urlShown, login]);
    } catch (error) {
      // discovery, registration or the server itself failed: nothing the user can open
      const cause = (error as { cause?: unknown } | null)?.cause;
      const why = ToolError.isInstance(error)
        ? error.message
        : `${String(error)}${cause instanceof Error ? ` (${cause.message})` : ''}`;
      throw new ApiError(
        502,
        ToolError.isInstance(error) ? error.code : 'PROVIDER_UNAVAILABLE',
        'oauth_start_failed',
        `the login to MCP server "${record.name}" could not start: ${why}; check that ${config.url} answers, then retry`,
      );
    }
    if (!(first instanceof URL)) {
      throw new ApiError(
        409,
        'INVALID_ARGUMENTS',
        'oauth_not_required',
        `MCP server "${record.name}" answered without asking for a token: it needs no login; register it without "auth"`,
      );
    }
    const state = first.searchParams.get('state');
    if (!state) throw new ToolError('INTERNAL', 'the authorization URL carries no state');
    this.logins.add(state, { owner, server: record.name, record, deliver, abandon, finished });
    return first;
  }

  /**
   * Finishes the login `state` belongs to with the browser's redirect: exchanges the code and
   * stores the tokens (sealed) for that login's user and server only. A state that is unknown,
   * already used or expired is refused, and nothing is exchanged.
   */
  async finish(
    state: string | undefined,
    redirect: McpAuthRedirect,
  ): Promise<{ server: string; userId: string }> {
    const pending = state ? this.logins.take(state) : undefined;
    if (!pending)
      throw new ApiError(
        400,
        'DENIED',
        'oauth_state_invalid',
        'this link is not a login in progress (unknown, already used or expired): start the login again with POST /v1/mcp-servers/{name}/oauth/start',
      );
    pending.deliver(redirect);
    try {
      await pending.finished;
    } catch (error) {
      throw new ApiError(
        400,
        'DENIED',
        'oauth_failed',
        `${ToolError.isInstance(error) ? error.message : String(error)} (${restart(pending.server)})`,
      );
    }
    await this.options.connections.closeUser(pending.owner, pending.server);
    try {
      // the first link names the server's tools in the tenant's registry
      const tools = await this.options.connections.use(
        pending.owner,
        pending.server,
        pending.record.config,
        async (connection) => connection.provider.listTools(),
      );
      await this.learnTools(pending.owner.tenantId, pending.server, tools);
    } catch (error) {
      this.options.onError(
        `listing the tools of MCP server "${pending.server}" after a link failed: ${String(error)}`,
      );
    }
    return { server: pending.server, userId: pending.owner.userId };
  }

  /** Whether `owner` has a stored link (tokens) for `server`. */
  async hasLink(owner: TokenOwner, server: string): Promise<boolean> {
    return (await this.options.connections.authFor(owner).store.read(server))?.tokens !== undefined;
  }

  /** Forgets `owner`'s tokens for `server` and closes their connection; whether there was a link. */
  async unlink(owner: TokenOwner, server: string): Promise<boolean> {
    const auth = this.options.connections.authFor(owner);
    const had = (await auth.store.read(server))?.tokens !== undefined;
    await logoutMcpServer(auth, server);
    await this.options.connections.closeUser(owner, server);
    return had;
  }

  /** Closes every user's connection to `server` (it was changed or removed). */
  async closeServer(tenantId: string, server: string): Promise<void> {
    await this.options.connections.closeServer(tenantId, server);
  }

  /** Abandons the logins waiting for a browser and closes every connection. */
  async close(): Promise<void> {
    this.logins.close();
    await this.options.connections.close();
  }
}
