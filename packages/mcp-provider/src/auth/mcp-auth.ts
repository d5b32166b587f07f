import { recordSecrets } from './secret-values.js';
import type { McpAuthRecord, McpTokenStore } from './token-store.js';

/** Options of {@link createMcpAuth}. */
export interface McpAuthOptions {
  /** Where tokens and registered clients live. */
  readonly store: McpTokenStore;
  /** `client_name` sent on dynamic registration. Default `toolplane`. */
  readonly clientName?: string;
  /**
   * An https URL of a client ID metadata document: used as `client_id` when the authorization
   * server says `client_id_metadata_document_supported`; otherwise toolplane registers (RFC 7591).
   */
  readonly clientMetadataUrl?: string;
  /** The command a user runs to log in, named in `AUTH_REQUIRED` errors. Default `toolplane mcp login <server>`. */
  readonly loginCommand?: (server: string) => string;
  /** Bound of each discovery, registration and token request. Default 10000 ms. */
  readonly requestTimeoutMs?: number;
  /** An access token this close to its expiry is refreshed before a session opens. Default 60000 ms. */
  readonly refreshLeewayMs?: number;
}

/** OAuth for remote servers, shared by the providers of one process (or one user). */
export interface McpAuth {
  readonly store: McpTokenStore;
  readonly clientName: string;
  readonly clientMetadataUrl: string | undefined;
  readonly requestTimeoutMs: number;
  readonly refreshLeewayMs: number;
  loginCommand(server: string): string;
  /** Tokens and client secrets seen for `server` in this process, for the scrubber. */
  secretValues(server: string): string[];
  /** Reads a record and remembers its secrets. */
  read(server: string): Promise<McpAuthRecord | undefined>;
  /** Writes a record and remembers its secrets. */
  write(server: string, record: McpAuthRecord): Promise<void>;
}

/** Makes the OAuth settings a provider takes as its `auth` option. */
export function createMcpAuth(options: McpAuthOptions): McpAuth {
  const seen = new Map<string, Set<string>>();
  const remember = (server: string, record: McpAuthRecord | undefined): void => {
    const values = recordSecrets(record);
    if (values.length === 0) return;
    let set = seen.get(server);
    if (!set) {
      set = new Set();
      seen.set(server, set);
    }
    for (const value of values) set.add(value);
  };
  const { store } = options;
  return {
    store,
    clientName: options.clientName ?? 'toolplane',
    clientMetadataUrl: options.clientMetadataUrl,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    refreshLeewayMs: options.refreshLeewayMs ?? 60_000,
    loginCommand: options.loginCommand ?? ((server) => `toolplane mcp login ${server}`),
    secretValues: (server) => [...(seen.get(server) ?? [])],
    read: async (server) => {
      const record = await store.read(server);
      remember(server, record);
      return record;
    },
    write: async (server, record) => {
      remember(server, record);
      await store.write(server, record);
    },
  };
}

/** Whether `value` looks like the result of {@link createMcpAuth}. */
export function isMcpAuth(value: unknown): value is McpAuth {
  const record = value as Partial<McpAuth> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.read === 'function' &&
    typeof record.write === 'function' &&
    typeof record.secretValues === 'function'
  );
}
