import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { onAbort } from '@toolplane/core';
import type { TransportHandle } from './sdk-session.js';

/** How one SDK client connects and closes, for {@link connectWithin}. */
export interface Connecting {
  /** The client's `connect()` over the handle's transport. */
  connect(): Promise<void>;
  /** Closes the client after a failed start (the caller marks the close as its own first). */
  closeClient(): Promise<void>;
  /** Maps a client error to the shape the provider reports (default: as is). */
  normalize?(error: unknown): unknown;
  /**
   * Fail at once on an answer with `"id": null` (see {@link watchNullIds}): for the v2 client,
   * whose string ids some gateways lose. Off for v1, whose numeric ids they keep.
   */
  readonly watchNullIds?: boolean;
}

/**
 * Runs a client's connect (transport start plus initialize) within `timeoutMs`, since
 * `connect()` does not bound the transport's start (an SSE endpoint that never answers), and
 * gives up when `signal` aborts, or (when asked) when an answer comes back with `"id": null`
 * (see {@link watchNullIds}). On failure it closes the client and the transport and adds the
 * transport's diagnostics (recent stderr, last error) to the error's message.
 */
export async function connectWithin(
  handle: TransportHandle,
  options: { signal: AbortSignal; timeoutMs: number },
  connecting: Connecting,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopFollowing: (() => void) | undefined;
  const nullIds = connecting.watchNullIds ? watchNullIds(handle.transport) : undefined;
  try {
    const bounded = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not initialize within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      stopFollowing = onAbort({ signal: options.signal }, () => reject(new Error('start was cancelled')));
    });
    const racers: Array<Promise<unknown>> = [connecting.connect(), bounded];
    if (nullIds) racers.push(nullIds.refused);
    if (handle.fatal) racers.push(handle.fatal);
    await Promise.race(racers);
  } catch (error) {
    await connecting.closeClient().catch(() => {});
    await handle.transport.close().catch(() => {});
    const normalized = connecting.normalize ? connecting.normalize(error) : error;
    const detail = handle.diagnostics();
    if (detail && normalized instanceof Error && !normalized.message.includes(detail))
      normalized.message = `${normalized.message}; ${detail}`;
    throw normalized;
  } finally {
    nullIds?.stop();
    clearTimeout(timer);
    stopFollowing?.();
  }
}

/**
 * Watches the answers a transport delivers while a client connects. A response with
 * `"id": null` means the peer could not tell which request it answers: JSON-RPC allows it only
 * for an error about an unreadable request, and gateways that keep only numeric ids (supergateway
 * answers a string id with a result whose id is null) produce it for every request the v2 client
 * sends. Its request would then wait for the startup timeout; this fails it at once with what to
 * do. The watch goes in front of the client's handler when the client starts the transport (a
 * client reads and chains the handler it finds, so it cannot be there earlier); `stop()` puts
 * the client's handler and the transport's `start` back.
 */
function watchNullIds(transport: Transport): { refused: Promise<never>; stop(): void } {
  let refuse: (error: Error) => void = () => {};
  const refused = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  // Raced while connecting; one that comes after the race was decided needs no handler.
  refused.catch(() => {});
  const ownStart = Object.hasOwn(transport, 'start');
  const start = transport.start;
  let installed: Transport['onmessage'];
  let watching: Transport['onmessage'];
  transport.start = function startWatched(this: Transport) {
    installed = transport.onmessage;
    const client = installed;
    watching = (message, extra) => {
      const answer = message as { id?: unknown; result?: unknown; error?: { message?: unknown } };
      if (answer.id === null && ('result' in answer || 'error' in answer)) {
        const said = typeof answer.error?.message === 'string' ? ` (its error: ${answer.error.message})` : '';
        refuse(
          new Error(
            `the server answered with "id": null${said}: the request's id was lost on the way, as some gateways (supergateway) do with the string ids of client "v2"; use client "v1" for this server or a gateway that keeps ids`,
          ),
        );
      }
      client?.(message, extra);
    };
    transport.onmessage = watching;
    return start.call(transport);
  };
  return {
    refused,
    stop() {
      if (ownStart) transport.start = start;
      else delete (transport as { start?: unknown }).start;
      // Put the client's handler back unless someone replaced the watch since.
      if (watching !== undefined && transport.onmessage === watching) transport.onmessage = installed;
    },
  };
}
