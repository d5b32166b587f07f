import { isAuthRequired } from '../auth/auth-required.js';
import { ToolError, errorMessage } from '@toolplane/core';
import { MCP_DEFAULTS } from '../config/types.js';
import type { McpSession } from '../session/session.js';
import { DEFAULT_RESTART_POLICY, RestartTracker } from './backoff.js';
import { cancelledStartError, unavailableError } from './connection-errors.js';
import type { ConnectionState, ServerConnectionOptions } from './connection-types.js';
import { eitherSignal } from './either-signal.js';
import type { McpEventListener } from './events.js';
import { startHealthProbes } from './health-probes.js';
import { type ProtocolErrorReports, protocolErrorEvents, reportStartErrors } from './protocol-errors.js';
import { RestartWaiters } from './restart-waiters.js';
import { SharedStart } from './shared-start.js';

/**
 * One live connection to one server: starts it with a startup timeout, restarts it with
 * backoff when it dies, marks it failed when it keeps crashing, and probes its health.
 * Shared by every provider that uses the server (see the shared registry).
 */
export class ServerConnection {
  state: ConnectionState = 'idle';
  /** Why the server last went down or failed to start. */
  lastError = '';
  private current: McpSession | undefined;
  private starting: SharedStart | undefined;
  /** The stop of an operator's restart in progress. */
  private stopping: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly waiters = new RestartWaiters();
  private readonly tracker: RestartTracker;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopHealth: (() => void) | undefined;
  private readonly openListeners = new Set<(session: McpSession) => void>();
  private readonly changeListeners = new Set<() => void>();
  private lifetime = new AbortController();
  /** The open session's protocol errors, coalesced. */
  private protocolErrors: ProtocolErrorReports | undefined;

  constructor(private readonly options: ServerConnectionOptions) {
    this.tracker = new RestartTracker(options.restartPolicy ?? DEFAULT_RESTART_POLICY);
  }

  get server(): string {
    return this.options.server;
  }

  /** The open session, if any. */
  get session(): McpSession | undefined {
    return this.current;
  }

  /** Told each time a session opens (first start and every restart). */
  onSessionOpened(listener: (session: McpSession) => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** Told when the server says its tool list changed. */
  onToolsChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private emit: McpEventListener = (event) => {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a listener's failure must not break the connection
    }
  };

  private unavailable(why: string): ToolError {
    return unavailableError(this.server, this.state, why);
  }

  /** Starts the server if it is not running; resolves with the open session. */
  start(signal?: AbortSignal): Promise<McpSession> {
    if (this.state === 'closed') return Promise.reject(this.unavailable('the provider was closed'));
    if (this.current) return Promise.resolve(this.current);
    // Cancelled before it began: nothing is launched.
    if (signal?.aborted) return Promise.reject(this.cancelled());
    const starting = this.starting;
    if (starting?.abandoned) {
      // Everyone who waited cancelled it; once it is torn down this caller gets a start of its own.
      const again = (): Promise<McpSession> => this.start(signal);
      return starting.promise.then(again, again);
    }
    if (starting) return starting.join(signal, () => this.cancelled());
    if (this.state === 'restarting') {
      const timeoutMs = this.options.config.startupTimeoutMs ?? MCP_DEFAULTS.startupTimeoutMs;
      const timedOut = () => this.unavailable(`it is restarting after: ${this.lastError}`);
      return this.waiters.wait(signal, timeoutMs, timedOut, () => this.cancelled());
    }
    if (this.state === 'failed') return Promise.reject(this.unavailable(this.lastError));
    return this.open('starting').join(signal, () => this.cancelled());
  }

  private cancelled(): ToolError {
    return cancelledStartError(this.server);
  }

  private open(state: 'starting' | 'restarting'): SharedStart {
    this.state = state;
    const timeoutMs = this.options.config.startupTimeoutMs ?? MCP_DEFAULTS.startupTimeoutMs;
    const lifetime = this.lifetime.signal;
    const run = (abandoned: AbortSignal): Promise<McpSession> => {
      const either = eitherSignal([abandoned, lifetime]);
      return this.options
        .openSession({ signal: either.signal, timeoutMs })
        .finally(() => either.release())
        .then((session) => this.adopt(session))
        .catch((error: unknown) => {
          this.starting = undefined;
          this.lastError = ToolError.isInstance(error) ? error.message : errorMessage(error);
          if ((this.state as ConnectionState) === 'closed') throw this.unavailable('the provider was closed');
          reportStartErrors(this.server, this.emit, error);
          if (state === 'restarting') {
            this.scheduleRestart(`restart failed: ${this.lastError}`);
          } else {
            this.state = 'idle';
            this.waiters.rejectAll(this.unavailable(`failed to start: ${this.lastError}`));
          }
          // a login or a config fix cures these; retrying would fail the same way
          if (ToolError.isInstance(error) && (error.code === 'CONFIG_INVALID' || isAuthRequired(error)))
            throw error;
          throw this.unavailable(`failed to start: ${this.lastError}`);
        });
    };
    // a restart waits for nobody's signal: it is never abandoned
    const pending = new SharedStart(run, state === 'restarting');
    this.starting = pending;
    return pending;
  }

  private adopt(session: McpSession): McpSession {
    this.starting = undefined;
    if (this.state === 'closed') {
      void session.close();
      throw this.unavailable('the provider was closed');
    }
    this.current = session;
    this.state = 'ready';
    this.tracker.started();
    session.onClose((reason) => this.lost(session, reason));
    session.onToolsChanged(() => {
      for (const listener of this.changeListeners) listener();
    });
    const reports = protocolErrorEvents(this.server, this.emit);
    this.protocolErrors = reports;
    session.onProtocolError((message) => reports.add(message));
    this.emit({
      type: 'server-started',
      server: this.server,
      transport: session.transport,
      restarts: this.tracker.restarts,
      ...(session.pid === undefined ? {} : { pid: session.pid }),
    });
    for (const listener of this.openListeners) listener(session);
    this.waiters.resolveAll(session);
    this.stopHealth = startHealthProbes(
      session,
      this.options.config,
      () => this.current === session,
      (reason) => {
        this.emit({ type: 'health-failed', server: this.server, reason });
        this.lost(session, reason);
        void session.close();
      },
    );
    return session;
  }

  /** The session died or stopped answering: report, then restart or fail. */
  lost(session: McpSession, reason: string): void {
    if (this.current !== session) return;
    this.current = undefined;
    this.stopHealthProbes();
    this.endProtocolErrors();
    this.lastError = reason;
    this.emit({ type: 'server-exited', server: this.server, reason });
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: string): void {
    if (this.state === 'closed') return;
    const next = this.tracker.crashed();
    if (!next) {
      this.state = 'failed';
      // a server given up is not started again: say what brings it back
      this.lastError = `${this.tracker.givenUpBecause()} and was given up (restartPolicy): fix the server, then call provider.restart(); last: ${reason}`;
      this.emit({ type: 'server-failed', server: this.server, reason: this.lastError });
      this.waiters.rejectAll(this.unavailable(this.lastError));
      return;
    }
    this.state = 'restarting';
    this.emit({
      type: 'server-restarting',
      server: this.server,
      attempt: next.attempt,
      delayMs: next.delayMs,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state !== 'restarting') return;
      this.open('restarting').promise.catch(() => {});
    }, next.delayMs);
    this.restartTimer.unref?.();
  }

  /** The session ends: what its protocol errors held back is reported now. */
  private endProtocolErrors(): void {
    this.protocolErrors?.flush();
    this.protocolErrors = undefined;
  }

  private stopHealthProbes(): void {
    this.stopHealth?.();
    this.stopHealth = undefined;
  }

  /** Replaces the session with a new one (an expired remote session); not counted as a crash. */
  async reconnect(signal?: AbortSignal): Promise<McpSession> {
    const old = this.current;
    if (old) {
      this.current = undefined;
      this.stopHealthProbes();
      this.endProtocolErrors();
    }
    let renewal = this.starting;
    if (!renewal) {
      this.emit({ type: 'session-expired', server: this.server });
      renewal = this.open('starting');
    }
    // The old session is closed once the new one is open (or failed), not at once: requests still
    // in flight on it get their own 404 meanwhile and are sent again on the new session (closing
    // it failed them with "connection closed", though the server had refused them unrun).
    if (old) {
      const closeOld = (): void => void old.close().catch(() => {});
      renewal.promise.then(closeOld, closeOld);
    }
    return renewal.join(signal, () => this.cancelled());
  }

  /**
   * An operator's restart: stops the running server (or the start or restart in progress), forgets
   * its crashes and starts it anew, as a new provider would; a server marked failed comes back
   * this way. Not counted as a crash. Callers at once share one stop.
   */
  async restart(signal?: AbortSignal): Promise<McpSession> {
    if (this.state === 'closed') throw this.unavailable('the provider was closed');
    if (signal?.aborted) throw this.cancelled();
    this.stopping ??= this.stop('restart').finally(() => {
      this.stopping = undefined;
    });
    await this.stopping;
    this.tracker.reset();
    return this.start(signal);
  }

  /** Stops the server without restarting it (a lazy server going idle); `start()` brings it back. */
  async stop(reason: 'idle' | 'closed' | 'restart' = 'idle'): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.stopHealthProbes();
    const session = this.current ?? (await this.starting?.promise.catch(() => undefined));
    this.current = undefined;
    this.starting = undefined;
    if (this.state !== 'closed') this.state = 'idle';
    if (session) {
      await session.close();
      this.endProtocolErrors();
      this.emit({ type: 'server-stopped', server: this.server, reason });
    }
  }

  /** Stops for good: kills the server, fails waiters. A second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    const starting = this.starting?.promise;
    this.state = 'closed';
    this.lifetime.abort();
    this.lifetime = new AbortController();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.stopHealthProbes();
    this.waiters.rejectAll(this.unavailable('the provider was closed'));
    const session = this.current ?? (await starting?.catch(() => undefined));
    this.current = undefined;
    this.starting = undefined;
    if (session) {
      await session.close();
      this.endProtocolErrors();
      this.emit({ type: 'server-stopped', server: this.server, reason: 'closed' });
    }
  }
}
