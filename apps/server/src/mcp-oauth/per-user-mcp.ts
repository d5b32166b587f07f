import { ToolError, type ToolProvider, type ToolSpec } from '@toolplane/core';
import {
  type McpAuthRedirect,
  type McpLoginStart,
  beginMcpLogin,
  completeMcpLogin,
  createMemoryTokenStore,
  logoutMcpServer,
} from '@toolplane/mcp-provider';
import { ApiError } from '../http/api-error.js';
import type { McpServerRecord } from '../mcp-servers/mcp-server-store.js';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';
import { writeKnownTools } from './known-tools.js';
import type { PerUserConnections } from './per-user-connections.js';
import { createPerUserProvider } from './per-user-provider.js';
import { PendingLogins } from './pending-logins.js';
import type { TokenOwner } from './user-token-store.js';

/** Options of {@link PerUserMcp}. */
export interface PerUserMcpOptions {
  readonly db: SqlClient;
  /** Seals the pending logins stored in the database. */
  readonly cipher: Cipher;
  /** The tenant's MCP servers as registered now (the callback checks the login's server). */
  readonly servers: (tenantId: string) => Promise<readonly McpServerRecord[]>;
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
    this.logins = new PendingLogins(options.db, options.cipher, options.loginTtlMs);
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
   * Starts `owner`'s login to `record`'s server: discovery, registration and PKCE through the
   * mcp-provider library; stores the pending login in the database (so the callback may land on
   * any instance) and resolves with the URL the user opens. A link already stored stays in use
   * until the new login completes, and stays when it is abandoned.
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
    const previous = await this.options.connections.authFor(owner).store.read(record.name);
    // the login works on a copy without tokens: a new link is a new authorization (another
    // account, say), never a silent refresh, and the stored link stays until the new one is made
    const staging = createMemoryTokenStore();
    if (previous) {
      const { tokens: _dropped, ...rest } = previous;
      await staging.write(record.name, rest);
    }
    const auth = this.options.connections.authWith(staging);
    let start: McpLoginStart;
    try {
      start = await beginMcpLogin({
        auth,
        server: record.name,
        serverUrl: config.url,
        redirectUrl: this.options.callbackUrl(),
      });
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
    } finally {
      this.options.connections.scrub(auth, record.name);
    }
    if (start.status !== 'redirect')
      throw new ApiError(
        409,
        'INVALID_ARGUMENTS',
        'oauth_not_required',
        `MCP server "${record.name}" answered without asking for a browser login: it needs no link; register it without "auth"`,
      );
    await this.logins.add({ owner, server: record.name, pending: start.pending });
    return start.authorizationUrl;
  }

  /**
   * Finishes the login `state` belongs to with the browser's redirect, on whichever instance
   * started it: exchanges the code with the stored verifier and stores the tokens (sealed) for
   * that login's user and server only. A state that is unknown, already used or expired is
   * refused, and nothing is exchanged.
   */
  async finish(
    state: string | undefined,
    redirect: McpAuthRedirect,
  ): Promise<{ server: string; userId: string }> {
    const login = state ? await this.logins.take(state) : undefined;
    if (!login)
      throw new ApiError(
        400,
        'DENIED',
        'oauth_state_invalid',
        'this link is not a login in progress (unknown, already used or expired): start the login again with POST /v1/mcp-servers/{name}/oauth/start',
      );
    const { owner, server, pending } = login;
    const record = (await this.options.servers(owner.tenantId)).find((each) => each.name === server);
    if (
      record?.auth !== 'oauth-per-user' ||
      !('url' in record.config) ||
      record.config.url !== pending.serverUrl
    )
      throw new ApiError(
        400,
        'DENIED',
        'oauth_failed',
        `MCP server "${server}" was changed or removed during the login (${restart(server)})`,
      );
    const staging = createMemoryTokenStore();
    const auth = this.options.connections.authWith(staging);
    try {
      await completeMcpLogin({ auth, pending, redirect });
      const made = await staging.read(server);
      if (!made?.tokens) throw new ToolError('DENIED', 'the code exchange stored no tokens');
      await this.options.connections.authFor(owner).store.write(server, made);
    } catch (error) {
      throw new ApiError(
        400,
        'DENIED',
        'oauth_failed',
        `${ToolError.isInstance(error) ? error.message : String(error)} (${restart(server)})`,
      );
    } finally {
      this.options.connections.scrub(auth, server);
    }
    await this.options.connections.closeUser(owner, server);
    try {
      // the first link names the server's tools in the tenant's registry
      const tools = await this.options.connections.use(owner, server, record.config, async (connection) =>
        connection.provider.listTools(),
      );
      await this.learnTools(owner.tenantId, server, tools);
    } catch (error) {
      this.options.onError(
        `listing the tools of MCP server "${server}" after a link failed: ${String(error)}`,
      );
    }
    return { server, userId: owner.userId };
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

  /** Closes every connection (pending logins stay in the database for any instance). */
  async close(): Promise<void> {
    await this.options.connections.close();
  }
}
