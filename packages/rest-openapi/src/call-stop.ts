import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';

/** Why a call was stopped before it finished. */
export type StopReason = 'cancelled' | 'timeout' | 'closed';

/**
 * The stop of one call: undici takes it as the request's abort signal (an EventEmitter costs less
 * per call than an AbortController plus `AbortSignal.any`), and it remembers that it fired, so a
 * request sent after the stop (the next hop of a redirect whose body was draining) is aborted at
 * once instead of running as if nothing happened. The first reason wins.
 */
export class CallStop extends EventEmitter {
  /** Read by undici before it sends: an already stopped call sends nothing. */
  aborted = false;
  reason: StopReason | undefined;

  stop(reason: StopReason): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** What a request stopped before undici settled it rejects with. */
export class CallStoppedError extends Error {
  override readonly name = 'CallStoppedError';
}

/**
 * The response of `request`, or a rejection as soon as `stop` fires. undici settles a request
 * aborted while it waits for a pool slot or for its connection (a TLS handshake that hangs) only
 * once that connection is made or times out: the call must not wait for that.
 */
export function untilStopped(
  request: Promise<Dispatcher.ResponseData>,
  stop: CallStop,
): Promise<Dispatcher.ResponseData> {
  return firstOf(
    request,
    (onStop) => {
      if (stop.aborted) {
        onStop();
        return undefined;
      }
      stop.once('abort', onStop);
      return () => stop.off('abort', onStop);
    },
    () => new CallStoppedError(`the call was stopped (${stop.reason})`),
  );
}

/** The response of `request`, or the signal's reason as soon as it aborts (see {@link untilStopped}). */
export function untilAborted(
  request: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return firstOf(
    request,
    (onStop) => {
      if (signal.aborted) {
        onStop();
        return undefined;
      }
      signal.addEventListener('abort', onStop, { once: true });
      return () => signal.removeEventListener('abort', onStop);
    },
    () => signal.reason,
  );
}

/**
 * Settles with `request` or with `stopped()` once `listen` reports a stop, whichever comes first.
 * A response that still arrives after the stop has its body destroyed, so its connection is not held.
 */
function firstOf(
  request: Promise<Dispatcher.ResponseData>,
  listen: (onStop: () => void) => (() => void) | undefined,
  stopped: () => unknown,
): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const onStop = (): void => {
      if (settled) return;
      settled = true;
      reject(stopped());
    };
    const unlisten = listen(onStop);
    request.then(
      (response) => {
        unlisten?.();
        if (!settled) {
          settled = true;
          resolve(response);
          return;
        }
        response.body.on('error', () => undefined);
        response.body.destroy();
      },
      (error: unknown) => {
        unlisten?.();
        if (settled) return;
        settled = true;
        reject(error);
      },
    );
  });
}
