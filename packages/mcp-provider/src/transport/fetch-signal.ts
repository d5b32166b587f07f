import { onAbort } from '@toolplane/core';

/** A request's own signal, following the caller's; see {@link followForFetch}. */
export interface FetchSignal {
  /** Absent when the caller gave none. */
  readonly signal?: AbortSignal;
  /** Stops following the caller's signal (the request and its body are done). Safe to call twice. */
  release(): void;
}

const NOTHING: FetchSignal = { release: () => {} };

/**
 * A signal of one request's own that aborts when `shared` does. The remote transports hand
 * every fetch of a session the same long-lived signal, and fetch keeps an abort listener on
 * the signal it is given until the request is garbage collected: a session collected one per
 * request (Node's MaxListenersExceededWarning past 1500). Here `shared` is followed through
 * core's `onAbort` (one listener per signal, shared by every request on it) until `release()`.
 */
export function followForFetch(shared: AbortSignal | null | undefined): FetchSignal {
  if (!shared) return NOTHING;
  const own = new AbortController();
  const stop = onAbort({ signal: shared }, (reason) => own.abort(reason));
  return { signal: own.signal, release: stop };
}

/**
 * `body` read through, calling `release` once it ends, fails or is cancelled, so a request
 * follows its caller's signal exactly as long as its body can still be read.
 */
export function releasingBody(
  body: ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}
