/**
 * Runs tasks one at a time in the order they came. PGlite serves one connection, so every
 * query and transaction waits its turn here instead of interleaving inside one.
 */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
