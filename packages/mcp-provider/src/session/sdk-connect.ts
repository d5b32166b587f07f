import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { onAbort } from '@toolplane/core';
import { hasBothOutcomes } from './both-outcomes.js';
import type { ErrorRelay } from './error-relay.js';
import type { TransportHandle } from './transport-handle.js';
import { keepStartErrors } from './start-errors.js';

/** How one SDK client connects and closes, for {@link connectWithin}. */
export interface Connecting {
  /** The client's `connect()` over the handle's transport. */
  connect(): Promise<void>;
  /** Closes the client after a failed start (the caller marks the close as its own first). */
  closeClient(): Promise<void>;
  /** Maps a client error to the shape the provider reports (default: as is). */
  normalize?(error: unknown): unknown;
  /**
   * Fail at once on an answer with `"id": null` (see {@link watchAnswers}): for the v2 client,
   * whose string ids some gateways lose. Off for v1, whose numeric ids they keep.
   */
  readonly watchNullIds?: boolean;
  /**
   * The session's protocol errors: on a stdio server's failed start, those seen while it
   * started go with the error (see `keepStartErrors`), to be reported as events. A remote
   * transport's are its connect errors, which the start error already says.
   */
  readonly errors: ErrorRelay;
}

/**
 * Runs a client's connect (transport start plus initialize) within `timeoutMs`, since
 * `connect()` does not bound the transport's start (an SSE endpoint that never answers), and
 * gives up when `signal` aborts, or (when asked) when an answer comes back with `"id": null`
 * (see {@link watchAnswers}). On failure it closes the client and the transport and adds the
 * transport's diagnostics (stdout that is not JSON-RPC, recent stderr, last error) to the
 * error's message.
 */
export async function connectWithin(
  handle: TransportHandle,
  options: { signal: AbortSignal; timeoutMs: number },
  connecting: Connecting,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopFollowing: (() => void) | undefined;
  const watch = watchAnswers(handle.transport, connecting.watchNullIds === true);
  try {
    const bounded = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not initialize within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      stopFollowing = onAbort({ signal: options.signal }, () => reject(new Error('start was cancelled')));
    });
    const racers: Array<Promise<unknown>> = [connecting.connect(), bounded, watch.refused];
    if (handle.fatal) racers.push(handle.fatal);
    await Promise.race(racers);
  } catch (error) {
    await connecting.closeClient().catch(() => {});
    await handle.transport.close().catch(() => {});
    const normalized = connecting.normalize ? connecting.normalize(error) : error;
    const detail = handle.diagnostics();
    if (detail && normalized instanceof Error && !normalized.message.includes(detail))
      normalized.message = `${normalized.message}; ${detail}`;
    if (handle.kind === 'stdio') keepStartErrors(normalized, connecting.errors);
    throw normalized;
  } finally {
    watch.stop();
    clearTimeout(timer);
    stopFollowing?.();
  }
}

/**
 * Watches the answers a transport delivers while a client connects. A response with both
 * `result` and `error` (JSON-RPC allows one) is refused by the SDK clients as a message of no
 * known type, and `initialize` waited for the startup timeout: it fails the start at once with
 * the server's error. When `nullIds` is set, a response with `"id": null` does too: it means
 * the peer could not tell which request it answers (JSON-RPC allows it only for an error about
 * an unreadable request), and gateways that keep only numeric ids (supergateway answers a
 * string id with a result whose id is null) produce it for every request the v2 client sends.
 *
 * The watch sits in front of whatever handler a client installs, however often: `onmessage`
 * becomes an accessor while connecting (the v2 client installs a handler for its
 * `server/discover` probe and another for `initialize`, so a handler wrapped once was dropped).
 * `stop()` puts back a plain `onmessage` holding the client's last handler.
 */
function watchAnswers(transport: Transport, nullIds: boolean): { refused: Promise<never>; stop(): void } {
  let refuse: (error: Error) => void = () => {};
  const refused = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  // Raced while connecting; one that comes after the race was decided needs no handler.
  refused.catch(() => {});
  const check = (message: unknown): void => {
    const answer = message as { id?: unknown; result?: unknown; error?: { message?: unknown } };
    if (hasBothOutcomes(message)) {
      const said = typeof answer.error?.message === 'string' ? answer.error.message : 'no message';
      refuse(
        new Error(
          `the server answered initialize with both "result" and "error" (JSON-RPC allows one); its error: ${said.slice(0, 1000)}; fix the server`,
        ),
      );
    } else if (nullIds && answer.id === null && ('result' in answer || 'error' in answer)) {
      const said = typeof answer.error?.message === 'string' ? ` (its error: ${answer.error.message})` : '';
      refuse(
        new Error(
          `the server answered with "id": null${said}: the request's id was lost on the way, as some gateways (supergateway) do with the string ids of client "v2"; use client "v1" for this server or a gateway that keeps ids`,
        ),
      );
    }
  };
  let client = transport.onmessage;
  let watched: Transport['onmessage'];
  const watch = (handler: Transport['onmessage']): Transport['onmessage'] =>
    handler &&
    ((message, extra) => {
      check(message);
      handler(message, extra);
    });
  watched = watch(client);
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => watched,
    set: (handler: Transport['onmessage']) => {
      client = handler;
      watched = watch(handler);
    },
  });
  return {
    refused,
    stop() {
      Object.defineProperty(transport, 'onmessage', {
        configurable: true,
        enumerable: true,
        writable: true,
        value: client,
      });
    },
  };
}
