import type { ExecProcess, ExecResult } from '@toolplane/core';

/** A command that failed before it could start, as an ExecProcess whose `done` rejects. */
export function failedProcess(error: unknown): ExecProcess {
  const done = Promise.reject(error) as Promise<ExecResult>;
  done.catch(() => undefined);
  return { pid: undefined, done, kill: () => Promise.resolve() };
}
