import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpAuthChallenge } from './challenge.js';

/** Tokens as stored: the token response plus when the access token stops working. */
export interface McpStoredTokens extends OAuthTokens {
  /** Epoch milliseconds after which the access token is treated as expired (from `expires_in`). */
  readonly expires_at?: number;
}

/** What toolplane keeps for one remote server (and, on a multi-user server, one user). */
export interface McpAuthRecord {
  /** The server's URL when the record was written: a record for another URL is not used. */
  readonly serverUrl: string;
  readonly tokens?: McpStoredTokens;
  /** The registered (or pre-registered) OAuth client: `client_id`, maybe `client_secret`. */
  readonly client?: OAuthClientInformationMixed;
  /** The redirect URI the client was registered with (the CLI's loopback listener). */
  readonly redirectUri?: string;
  /** True when `client` was given by the user (not registered by toolplane): kept across logins. */
  readonly preRegistered?: boolean;
  /** The scope the last login asked for (the grant, when the token response names none). */
  readonly scope?: string;
  /** The server's last Bearer challenge since the login: the next login answers it. */
  readonly challenge?: McpAuthChallenge;
  /** Discovery results (resource and authorization server metadata), reused by refreshes. */
  readonly discovery?: Record<string, unknown>;
}

/**
 * Where tokens live. The CLI uses {@link createFileTokenStore}; a multi-user server implements
 * it over encrypted rows, one store per user (or a key that holds the user), so one user's
 * calls never read another's record. Implementations must not log records.
 */
export interface McpTokenStore {
  read(server: string): Promise<McpAuthRecord | undefined>;
  write(server: string, record: McpAuthRecord): Promise<void>;
  remove(server: string): Promise<void>;
}

/** An in-memory store: tests, and short-lived processes that log in for one run. */
export function createMemoryTokenStore(): McpTokenStore {
  const records = new Map<string, McpAuthRecord>();
  return {
    read: async (server) => records.get(server),
    write: async (server, record) => {
      records.set(server, structuredClone(record));
    },
    remove: async (server) => {
      records.delete(server);
    },
  };
}
