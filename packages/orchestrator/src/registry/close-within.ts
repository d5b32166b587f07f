import type { Middleware } from '@toolplane/core';
import type { ProviderEntry } from './registry.js';
import { thrownMessage } from '../call/thrown.js';

/**
 * Runs one `close()`: a throw, a rejection or a hang past `limitMs` is reported through `warn`
 * and never keeps the rest of the shutdown from happening.
 */
export function closeWithin(
  what: string,
  close: () => unknown,
  limitMs: number,
  warn: (message: string) => void,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closing = Promise.resolve()
    .then(close)
    .then(
      () => undefined,
      (error: unknown) => warn(`${what} failed to close: ${thrownMessage(error)}`),
    );
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      warn(`${what} did not close within ${limitMs} ms; it was left behind`);
      resolve();
    }, limitMs);
    timer.unref();
  });
  return Promise.race([closing, late]).finally(() => clearTimeout(timer));
}

/**
 * Closes every provider (marking it closed and dropping its change subscription) and every
 * middleware at once, each bounded by {@link closeWithin}.
 */
export async function closeAll(
  entries: Iterable<ProviderEntry>,
  middleware: readonly Middleware[],
  limitMs: number,
  warn: (message: string) => void,
): Promise<void> {
  const closing: Array<Promise<void>> = [];
  for (const entry of entries) {
    entry.unsubscribe?.();
    const provider = entry.provider;
    if (entry.state !== 'closed')
      closing.push(closeWithin(`provider "${provider.namespace}"`, () => provider.close?.(), limitMs, warn));
    entry.state = 'closed';
  }
  for (const one of middleware)
    closing.push(closeWithin(`middleware "${one.name}"`, () => one.close?.(), limitMs, warn));
  await Promise.all(closing);
}
