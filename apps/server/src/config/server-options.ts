import type { Executor, ToolProvider } from '@toolplane/core';
import type { PolicyConfig } from '@toolplane/policy';
import type { LogSink } from '../observe/request-log.js';
import type { ServerSubagentOptions } from '../subagents/subagent-options.js';

/** Options of {@link startServer}; every one has a default. */
export interface ServerOptions {
  /** Address to listen on (default `127.0.0.1`). */
  readonly host?: string;
  /** Port (default 4470; 0 picks a free one). */
  readonly port?: number;
  /** Where the embedded database, the key file and the default working directory live. */
  readonly stateDir?: string;
  /** A PostgreSQL URL; the embedded database is used without one. */
  readonly databaseUrl?: string;
  /** The secret key (base64 of 32 bytes); without it, `<stateDir>/secret.key` (created 0600). */
  readonly secretKey?: string;
  /** Largest request body in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** Deepest JSON nesting of a body (default 64). */
  readonly maxBodyDepth?: number;
  /** Longest a client may take to send a whole request, headers and body (default 60 000 ms; 408 past it). */
  readonly requestTimeoutMs?: number;
  /** Longest a client may take to send the request headers (default 15 000 ms). */
  readonly headersTimeoutMs?: number;
  /** How long shutdown waits for calls in flight (default 10 000 ms). */
  readonly shutdownDeadlineMs?: number;
  /** Deadline of a tool call when the tool sets none (default 300 000 ms). */
  readonly callTimeoutMs?: number;
  /** Largest tool output kept in a result (default 64 KiB). */
  readonly maxOutputBytes?: number;
  /** The policy of every tenant (`@toolplane/policy` config; default allows what grants allow). */
  readonly policy?: PolicyConfig;
  /** Where custom tools run (default the host, through builtin-fs-shell's executor). */
  readonly executor?: Executor;
  /** Tool calls one key may make per minute, counted in the database across instances (default 600; 0: no limit). */
  readonly rateLimitPerMinute?: number;
  /** How long call records are kept (default 7 days; pruned in the background about once a minute). */
  readonly callRecordRetentionMs?: number;
  /** Call records kept per tenant at most, the newest (default 100 000). */
  readonly callRecordsPerTenant?: number;
  /** How long a call waits for an admin's approval before it is denied (default 120 000 ms). */
  readonly approvalTimeoutMs?: number;
  /** Providers of the embedding app, registered in every tenant (behind the same grants). */
  readonly providers?: readonly ToolProvider[];
  /** Where structured log lines go (default stderr). */
  readonly log?: LogSink;
  /**
   * The server's address as browsers reach it (`https://tools.example.com`); the OAuth callback
   * of per-user logins is `<publicUrl>/v1/oauth/callback`. Default the address it listens on.
   */
  readonly publicUrl?: string;
  /** How long a started per-user OAuth login waits for the browser to come back (default 600 000 ms). */
  readonly oauthLoginTtlMs?: number;
  /** A user's connection to a per-user OAuth server unused this long is closed (default 600 000 ms). */
  readonly oauthIdleMs?: number;
  /** Bound of each OAuth discovery, registration and token request (default 10 000 ms). */
  readonly oauthRequestTimeoutMs?: number;
  /** Subagents every tenant gets as tools, with the model endpoint they run on (default none). */
  readonly subagents?: ServerSubagentOptions;
}

/** The defaults, in one place for the README and the tests. */
export const SERVER_DEFAULTS = {
  host: '127.0.0.1',
  port: 4470,
  maxBodyBytes: 1024 * 1024,
  maxBodyDepth: 64,
  shutdownDeadlineMs: 10_000,
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 15_000,
  callTimeoutMs: 300_000,
  maxOutputBytes: 64 * 1024,
  rateLimitPerMinute: 600,
  approvalTimeoutMs: 120_000,
  callRecordRetentionMs: 7 * 24 * 3_600_000,
  callRecordsPerTenant: 100_000,
  oauthLoginTtlMs: 600_000,
  oauthIdleMs: 600_000,
  oauthRequestTimeoutMs: 10_000,
  /**
   * Grants decide what a principal may use; the default policy asks nobody (`bypass`), while
   * its default deny rules still hold. A policy file with `alwaysAsk` or another mode sends
   * calls to the approvals inbox.
   */
  policy: { mode: 'bypass' } as PolicyConfig,
} as const;
