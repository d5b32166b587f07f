import { onAbort } from '@toolplane/core';

/** A signal that follows others; see {@link eitherSignal}. */
export interface EitherSignal {
  /** Aborted (with its reason) once any of the sources is. */
  readonly signal: AbortSignal;
  /** Stops following the sources (the work it was made for is done). Safe to call twice. */
  release(): void;
}

/**
 * A signal that aborts when any of `sources` does, like `AbortSignal.any`, but that lets go of
 * them on `release()`. Node 20 keeps an entry on every source of an `AbortSignal.any` signal for
 * as long as the source lives, so a caller's long-lived signal given to one listing or ping
 * after another gained one each. The sources are followed through core's `onAbort` (one
 * listener per signal, shared by everything following it).
 */
export function eitherSignal(sources: ReadonlyArray<AbortSignal | undefined>): EitherSignal {
  const own = new AbortController();
  const stops: Array<() => void> = [];
  for (const source of sources) {
    if (!source || own.signal.aborted) continue;
    stops.push(onAbort({ signal: source }, (reason) => own.abort(reason)));
  }
  return {
    signal: own.signal,
    release() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
