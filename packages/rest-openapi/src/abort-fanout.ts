const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `callback` when `signal` aborts; returns the function that cancels the registration.
 * Many calls often share one caller signal: they share one listener on it here, so the signal
 * never collects a listener per call (and Node never warns about a leak).
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (!callbacks) {
    const created = new Set<() => void>();
    callbacks = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const pending of [...created]) pending();
        created.clear();
      },
      { once: true },
    );
  }
  const registered = callbacks;
  registered.add(callback);
  return () => {
    registered.delete(callback);
  };
}
