import { errorMessage } from '@toolplane/core';

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
      (error: unknown) => warn(`${what} failed to close: ${errorMessage(error)}`),
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
