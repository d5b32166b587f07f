import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type RequestListener, createServer } from 'node:http';
import { type ServerType, createAdaptorServer } from '@hono/node-server';
import { createHostExecutor } from '@toolplane/builtin-fs-shell';
import { createScrubber } from '@toolplane/scrubber';
import { CallRecorder } from './accounting/call-recorder.js';
import { ApprovalInbox } from './approvals/approval-inbox.js';
import { followKeyChanges } from './auth/key-changes.js';
import { PrincipalCache } from './auth/principal-cache.js';
import { createKey, hasNoKeys } from './auth/key-store.js';
import { SERVER_DEFAULTS, type ServerOptions } from './config/server-options.js';
import { createApp } from './http/app.js';
import { fastToolCalls } from './http/fast-tool-call.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { createMetrics } from './observe/metrics.js';
import { logErrorLine } from './observe/error-line.js';
import { requestLogger } from './observe/request-log.js';
import { listMcpServers } from './mcp-servers/mcp-server-store.js';
import { SharedMcpProviders } from './mcp-servers/shared-mcp-providers.js';
import { PerUserConnections } from './mcp-oauth/per-user-connections.js';
import { PerUserMcp } from './mcp-oauth/per-user-mcp.js';
import { RuntimeRegistry } from './runtime/runtimes.js';
import { SubagentTaskRegistry } from './subagents/task-registry.js';
import { createCipher } from './secrets/cipher.js';
import { loadSecretKey } from './secrets/secret-key.js';
import { openDatabase } from './storage/open.js';

/** The tenant created on first run; its admins may create other tenants. */
export const ROOT_TENANT = 'default';

/** A running server. */
export interface RunningServer {
  /** `http://127.0.0.1:4470` */
  readonly url: string;
  readonly port: number;
  readonly database: 'pglite' | 'postgres';
  /** The admin key made on first run (an empty database), shown this once; otherwise undefined. */
  readonly firstAdminKey: string | undefined;
  /** Whether the secret key file was created by this start. */
  readonly secretKeyCreated: boolean;
  /**
   * Stops accepting, lets calls in flight finish up to the deadline, then closes every
   * provider (MCP server processes too), the executor and the database. Safe to call twice.
   */
  close(): Promise<void>;
}

/** Opens the storage, makes the first admin key on an empty database and starts listening. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // a bad subagent definition fails here, before anything is opened
  const subagents = options.subagents ? new SubagentTaskRegistry(options.subagents) : undefined;
  const stateDir = options.stateDir ?? join(process.cwd(), '.toolplane-server');
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const secret = loadSecretKey({
    ...(options.secretKey ? { value: options.secretKey } : {}),
    file: join(stateDir, 'secret.key'),
  });
  const cipher = createCipher(secret.key);
  const db = await openDatabase(
    options.databaseUrl ? { postgresUrl: options.databaseUrl } : { dataDir: join(stateDir, 'db') },
  );
  await db.query('INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING', [ROOT_TENANT]);
  const firstAdminKey = (await hasNoKeys(db))
    ? (
        await createKey(db, {
          tenantId: ROOT_TENANT,
          kind: 'admin',
          principalId: 'admin',
          label: 'first run',
        })
      ).key
    : undefined;
  const workspace = join(stateDir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const executor = options.executor ?? createHostExecutor();
  const scrubber = createScrubber();
  const metrics = createMetrics();
  const deadlineMs = options.shutdownDeadlineMs ?? SERVER_DEFAULTS.shutdownDeadlineMs;
  const approvals = new ApprovalInbox();
  let stopping = false;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logError = (message: string) => logErrorLine(log, scrubber, message);
  const recorder = new CallRecorder(db, {
    retentionMs: options.callRecordRetentionMs ?? SERVER_DEFAULTS.callRecordRetentionMs,
    maxPerTenant: options.callRecordsPerTenant ?? SERVER_DEFAULTS.callRecordsPerTenant,
    vacuum: db.kind === 'pglite',
    onError: (error) => logError(`writing call records failed (kept for the next write): ${String(error)}`),
  });
  const rateLimitPerMinute = options.rateLimitPerMinute ?? SERVER_DEFAULTS.rateLimitPerMinute;
  const rateLimiter =
    rateLimitPerMinute > 0
      ? new RateLimiter(db, {
          limitPerMinute: rateLimitPerMinute,
          shared: db.kind === 'postgres',
          onError: (error) =>
            logError(`exchanging rate counts failed (kept for the next one): ${String(error)}`),
        })
      : undefined;
  const principals = new PrincipalCache();
  await followKeyChanges(db, principals);
  let listeningUrl = '';
  let reloadTools: (tenantId: string) => Promise<void> = async () => {};
  const perUserMcp = new PerUserMcp({
    db,
    cipher,
    servers: (tenantId) => listMcpServers(db, cipher, tenantId),
    connections: new PerUserConnections({
      db,
      cipher,
      scrubber,
      idleMs: options.oauthIdleMs ?? SERVER_DEFAULTS.oauthIdleMs,
      requestTimeoutMs: options.oauthRequestTimeoutMs ?? SERVER_DEFAULTS.oauthRequestTimeoutMs,
      startTimeoutMs: options.callTimeoutMs ?? SERVER_DEFAULTS.callTimeoutMs,
    }),
    loginTtlMs: options.oauthLoginTtlMs ?? SERVER_DEFAULTS.oauthLoginTtlMs,
    callbackUrl: () => `${(options.publicUrl ?? listeningUrl).replace(/\/+$/, '')}/v1/oauth/callback`,
    reloadTools: (tenantId) => reloadTools(tenantId),
    onError: logError,
  });
  const runtimes = new RuntimeRegistry(
    db,
    cipher,
    {
      executor,
      scrubber,
      policy: options.policy ?? SERVER_DEFAULTS.policy,
      mcpProviders: new SharedMcpProviders(),
      perUserMcp,
      providers: options.providers ?? [],
      approvals,
      approvalTimeoutMs: options.approvalTimeoutMs ?? SERVER_DEFAULTS.approvalTimeoutMs,
      defaultCwd: workspace,
      callTimeoutMs: options.callTimeoutMs ?? SERVER_DEFAULTS.callTimeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? SERVER_DEFAULTS.maxOutputBytes,
      recorder,
      ...(subagents ? { subagents } : {}),
    },
    deadlineMs,
  );
  reloadTools = (tenantId) => runtimes.reloadTools(tenantId);
  await runtimes.follow((error) =>
    logError(`applying a change from another instance failed: ${String(error)}`),
  );
  const appDeps = {
    db,
    cipher,
    runtimes,
    metrics,
    rootTenantId: ROOT_TENANT,
    stopping: () => stopping,
    approvals,
    rateLimitPerMinute,
    rateLimiter,
    principals,
    perUserMcp,
    ...(subagents ? { subagents } : {}),
    scrubber,
    log,
    limits: {
      maxBytes: options.maxBodyBytes ?? SERVER_DEFAULTS.maxBodyBytes,
      maxDepth: options.maxBodyDepth ?? SERVER_DEFAULTS.maxBodyDepth,
    },
  };
  const app = createApp(appDeps);
  const logged = requestLogger({ log, scrubber, metrics });
  const host = options.host ?? SERVER_DEFAULTS.host;
  const requestTimeoutMs = options.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs;
  const headersTimeoutMs = options.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs;
  let http: ServerType;
  try {
    http = await new Promise<ServerType>((resolve, reject) => {
      const server = createAdaptorServer({
        fetch: app.fetch,
        hostname: host,
        // slow clients (slowloris) may not hold a connection open: node answers 408 or closes it
        serverOptions: {
          headersTimeout: Math.min(headersTimeoutMs, requestTimeoutMs),
          requestTimeout: requestTimeoutMs,
          connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
        },
        // tool calls, the hot path, are answered on Node's request ahead of the app
        createServer: ((serverOptions: Parameters<typeof createServer>[0], listener: RequestListener) =>
          createServer(serverOptions, fastToolCalls({ ...appDeps, logged }, listener))) as never,
      });
      server.listen(options.port ?? SERVER_DEFAULTS.port, host, () => resolve(server));
      server.once('error', reject);
    });
  } catch (error) {
    await subagents?.close();
    await Promise.allSettled([runtimes.close(0), executor.close?.(), perUserMcp.close()]);
    await Promise.allSettled([recorder.close(), rateLimiter?.close()]);
    await db.close();
    throw error;
  }
  const port = (http.address() as AddressInfo).port;
  listeningUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: listeningUrl,
    port,
    database: db.kind,
    firstAdminKey,
    secretKeyCreated: secret.created,
    close() {
      closing ??= (async () => {
        stopping = true;
        const stopped = new Promise<void>((done) => http.close(() => done()));
        if ('closeIdleConnections' in http) http.closeIdleConnections();
        // running tasks are cancelled first: their calls are in flight in the runtimes
        await subagents?.close();
        await runtimes.close(deadlineMs);
        await perUserMcp.close();
        if ('closeAllConnections' in http) http.closeAllConnections();
        await stopped;
        await executor.close?.();
        // every finished call is booked and every count sent before the database closes
        await Promise.allSettled([recorder.close(), rateLimiter?.close()]);
        await db.close();
      })();
      return closing;
    },
  };
}
