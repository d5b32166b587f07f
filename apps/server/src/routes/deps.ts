import type { ApprovalInbox } from '../approvals/approval-inbox.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { PerUserMcp } from '../mcp-oauth/per-user-mcp.js';
import type { Cipher } from '../secrets/cipher.js';
import type { Database } from '../storage/database.js';
import type { RuntimeRegistry } from '../runtime/runtimes.js';
import type { ServerMetrics } from '../observe/metrics.js';
import type { SubagentTaskRegistry } from '../subagents/task-registry.js';

/** What the routes work with. */
export interface RouteDeps {
  readonly db: Database;
  readonly cipher: Cipher;
  readonly runtimes: RuntimeRegistry;
  readonly metrics: ServerMetrics;
  /** The tenant whose admins may create tenants. */
  readonly rootTenantId: string;
  /** Whether the server is stopping (readiness answers 503, new calls are refused). */
  readonly stopping: () => boolean;
  /** The policy's questions waiting for an admin. */
  readonly approvals: ApprovalInbox;
  /** Tool calls one key may make per minute, counted in the database (0: no limit). */
  readonly rateLimitPerMinute: number;
  /** Counts calls per key against `rateLimitPerMinute`; absent without a limit. */
  readonly rateLimiter: RateLimiter | undefined;
  /** Key lookups, kept briefly; a revoke drops the key's entry. */
  readonly principals: PrincipalCache;
  /** Per-user OAuth logins and connections of remote MCP servers. */
  readonly perUserMcp: PerUserMcp;
  /** Subagent tasks of every tenant; absent when the server runs no subagents. */
  readonly subagents?: SubagentTaskRegistry;
}
