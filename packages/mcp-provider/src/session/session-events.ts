import type { McpSession } from './session.js';
import { ErrorRelay } from './error-relay.js';

/**
 * What both SDK sessions (v1 and v2) keep about their listeners and their end: who listens for
 * the close, for tool-list changes and for protocol errors, and whether the provider closed the
 * session itself (then no close is reported, as it is no loss).
 */
export class SessionEvents {
  /** The session's protocol errors, relayed to its listener. */
  readonly errors = new ErrorRelay();
  /** Set when the provider closes the session (or gives it up): its close is not reported. */
  closedByUs = false;
  private closeReported = false;
  private readonly closeListeners: Array<(reason: string) => void> = [];
  private readonly changeListeners: Array<() => void> = [];

  /** Whether the close was reported or the provider closed the session. */
  get ended(): boolean {
    return this.closedByUs || this.closeReported;
  }

  /** Tells the close listeners once, unless the provider closed the session itself. */
  reportClose(reason: string): void {
    if (this.ended) return;
    this.closeReported = true;
    for (const listener of this.closeListeners) listener(reason);
  }

  /** Tells the listeners of tool-list changes. */
  toolsChanged(): void {
    for (const listener of this.changeListeners) listener();
  }

  /**
   * The session's `close` (the client, then its transport, each failure ignored) and its
   * listener registrations.
   */
  members(
    client: { close(): Promise<void> },
    transport: { close(): Promise<void> },
    beforeClose?: () => void,
  ): Pick<McpSession, 'close' | 'onClose' | 'onToolsChanged' | 'onProtocolError'> {
    return {
      close: async () => {
        this.closedByUs = true;
        beforeClose?.();
        await client.close().catch(() => {});
        await transport.close().catch(() => {});
      },
      onClose: (listener) => {
        this.closeListeners.push(listener);
      },
      onToolsChanged: (listener) => {
        this.changeListeners.push(listener);
      },
      onProtocolError: (listener) => {
        this.errors.listen(listener);
      },
    };
  }
}
