import type { TransportHandle } from './sdk-session.js';

/** How one SDK client connects and closes, for {@link connectWithin}. */
export interface Connecting {
  /** The client's `connect()` over the handle's transport. */
  connect(): Promise<void>;
  /** Closes the client after a failed start (the caller marks the close as its own first). */
  closeClient(): Promise<void>;
  /** Maps a client error to the shape the provider reports (default: as is). */
  normalize?(error: unknown): unknown;
}

/**
 * Runs a client's connect (transport start plus initialize) within `timeoutMs`, since
 * `connect()` does not bound the transport's start (an SSE endpoint that never answers), and
 * gives up when `signal` aborts. On failure it closes the client and the transport and adds
 * the transport's diagnostics (recent stderr, last error) to the error's message.
 */
export async function connectWithin(
  handle: TransportHandle,
  options: { signal: AbortSignal; timeoutMs: number },
  connecting: Connecting,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const bounded = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not initialize within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      onAbort = () => reject(new Error('start was cancelled'));
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([connecting.connect(), bounded]);
  } catch (error) {
    await connecting.closeClient().catch(() => {});
    await handle.transport.close().catch(() => {});
    const normalized = connecting.normalize ? connecting.normalize(error) : error;
    const detail = handle.diagnostics();
    if (detail && normalized instanceof Error && !normalized.message.includes(detail))
      normalized.message = `${normalized.message}; ${detail}`;
    throw normalized;
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
  }
}
