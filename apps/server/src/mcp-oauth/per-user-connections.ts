import {
  type McpAuth,
  type McpProvider,
  type McpServerConfig,
  type McpTokenStore,
  authRequiredError,
  createMcpAuth,
  createMcpProvider,
} from '@toolplane/mcp-provider';
import type { Scrubber } from '@toolplane/scrubber';
import type { Cipher } from '../secrets/cipher.js';
import type { SqlClient } from '../storage/database.js';
import { linkInstruction } from './login-command.js';
import { type TokenOwner, createUserTokenStore } from './user-token-store.js';

/** One user's open connection to one server. */
export interface UserConnection {
  readonly provider: McpProvider;
  readonly auth: McpAuth;
}

interface Entry {
  readonly opening: Promise<UserConnection>;
  timer: NodeJS.Timeout | undefined;
  /** Calls using the connection now. */
  users: number;
}

/** Options of {@link PerUserConnections}. */
export interface PerUserConnectionsOptions {
  readonly db: SqlClient;
  readonly cipher: Cipher;
  readonly scrubber: Scrubber;
  /** A connection unused this long is closed. */
  readonly idleMs: number;
  /** Bound of each discovery, registration and token request. */
  readonly requestTimeoutMs: number;
  /** Bound of opening a connection (the session's initialize and tool list). */
  readonly startTimeoutMs: number;
}

const keyOf = (owner: TokenOwner, server: string): string =>
  `${owner.tenantId}\u0000${owner.userId}\u0000${server}\u0000`;

/**
 * The connections of per-user OAuth servers: one MCP provider per (tenant, user, server,
 * config), opened on the user's first call with that user's token store only, closed when idle,
 * on unlink and when the server changes. The tokens each one reads or refreshes go to the
 * scrubber as exact values.
 */
export class PerUserConnections {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: PerUserConnectionsOptions) {}

  /** The OAuth settings of one user: a store that reads and writes that user's rows only. */
  authFor(owner: TokenOwner): McpAuth {
    return this.authWith(createUserTokenStore(this.options.db, this.options.cipher, owner));
  }

  /** The OAuth settings over `store` (a login's staging store). */
  authWith(store: McpTokenStore): McpAuth {
    return createMcpAuth({
      store,
      loginCommand: linkInstruction,
      requestTimeoutMs: this.options.requestTimeoutMs,
    });
  }

  /** Hands every token and client secret `auth` has seen for `server` to the scrubber. */
  scrub(auth: McpAuth, server: string): void {
    for (const value of auth.secretValues(server)) this.options.scrubber.addSecret(value);
  }

  /**
   * Runs `work` on the user's connection, opened when there is none; rejects with
   * `AUTH_REQUIRED` when the user has no stored login for this server (no request is sent
   * then). The idle timer runs only while no work uses the connection.
   */
  async use<T>(
    owner: TokenOwner,
    server: string,
    config: McpServerConfig,
    work: (connection: UserConnection) => Promise<T>,
  ): Promise<T> {
    const key = `${keyOf(owner, server)}${JSON.stringify(config)}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const opening = this.open(owner, server, config);
      const created: Entry = { opening, timer: undefined, users: 0 };
      entry = created;
      this.entries.set(key, created);
      opening.catch(() => {
        if (this.entries.get(key) === created) this.entries.delete(key);
      });
    }
    const held = entry;
    if (held.timer) clearTimeout(held.timer);
    held.timer = undefined;
    held.users += 1;
    try {
      return await work(await held.opening);
    } finally {
      held.users -= 1;
      if (held.users === 0 && this.entries.get(key) === held) {
        held.timer = setTimeout(() => void this.closeEntry(key, held), this.options.idleMs);
        held.timer.unref();
      }
    }
  }

  private async open(owner: TokenOwner, server: string, config: McpServerConfig): Promise<UserConnection> {
    const auth = this.authFor(owner);
    const record = await auth.read(server);
    const url = 'url' in config ? config.url : undefined;
    if (!record?.tokens || record.serverUrl !== url)
      throw authRequiredError(
        server,
        linkInstruction(server),
        `user "${owner.userId}" has not linked an account to this server`,
      );
    const provider = createMcpProvider(server, config, { auth });
    try {
      await provider.start?.(AbortSignal.timeout(this.options.startTimeoutMs));
    } catch (error) {
      this.scrub(auth, server);
      await provider.close?.();
      throw error;
    }
    this.scrub(auth, server);
    return { provider, auth };
  }

  private async closeEntry(key: string, entry: Entry): Promise<void> {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    if (entry.timer) clearTimeout(entry.timer);
    const connection = await entry.opening.catch(() => undefined);
    await connection?.provider.close?.();
  }

  /** Closes the user's connections to `server` (after a new login or an unlink). */
  async closeUser(owner: TokenOwner, server: string): Promise<void> {
    const prefix = keyOf(owner, server);
    await Promise.all(
      [...this.entries]
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, entry]) => this.closeEntry(key, entry)),
    );
  }

  /** Closes every user's connections to `server` of the tenant (it was changed or removed). */
  async closeServer(tenantId: string, server: string): Promise<void> {
    await Promise.all(
      [...this.entries]
        .filter(([key]) => {
          const [tenant, , name] = key.split('\u0000');
          return tenant === tenantId && name === server;
        })
        .map(([key, entry]) => this.closeEntry(key, entry)),
    );
  }

  /** Open connections (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await Promise.all([...this.entries].map(([key, entry]) => this.closeEntry(key, entry)));
  }
}
