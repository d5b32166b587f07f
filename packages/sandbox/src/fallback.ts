import type { ExecProcess, ExecRequest, ExecResult, Executor } from '@toolplane/core';
import { errorMessage } from '@toolplane/core';
import { isSandboxUnavailable, sandboxFailureCode } from './errors.js';

/** Options of {@link withHostFallback}. */
export interface HostFallbackOptions {
  /** Called each time a command runs on the host because the sandbox was unavailable. */
  readonly onFallback?: (error: unknown) => void;
}

class FallbackProcess implements ExecProcess {
  readonly done: Promise<ExecResult>;
  private current: ExecProcess;
  private killed = false;

  constructor(sandbox: Executor, host: Executor, request: ExecRequest, options: HostFallbackOptions) {
    this.current = sandbox.start(request);
    this.done = this.current.done.catch(async (error: unknown) => {
      if (this.killed || !isSandboxUnavailable(error)) throw error;
      options.onFallback?.(error);
      this.current = host.start(request);
      const result = await this.current.done;
      const note = `[sandbox] the ${sandbox.kind} sandbox is unavailable (${sandboxFailureCode(error)}: ${errorMessage(error)}); this command ran on the host, unconfined`;
      // In the order of stderr's last lines: the host's own notes, then this one.
      const notes = [...(result.notes ?? []), note];
      const separator = result.stderr.length === 0 || result.stderr.endsWith('\n') ? '' : '\n';
      return { ...result, stderr: `${result.stderr}${separator}${note}\n`, notes };
    });
    this.done.catch(() => undefined);
  }

  get pid(): number | undefined {
    return this.current.pid;
  }

  async kill(): Promise<void> {
    this.killed = true;
    await this.current.kill();
    await this.done.then(
      () => undefined,
      () => undefined,
    );
  }
}

/**
 * An executor that runs commands in `sandbox`, and on `host` when the sandbox cannot run here
 * (engine unreachable, image missing, no namespaces): each such result ends with a note saying
 * the command ran unconfined. Other sandbox failures still fail. Without this wrapper, a
 * sandbox that is unavailable fails the command: closed by default.
 *
 * @example
 * const executor = withHostFallback(createDockerExecutor({ workspace }), createHostExecutor());
 */
export function withHostFallback(
  sandbox: Executor,
  host: Executor,
  options: HostFallbackOptions = {},
): Executor {
  return {
    kind: sandbox.kind,
    start: (request) => new FallbackProcess(sandbox, host, request, options),
    async release(key) {
      await sandbox.release?.(key);
      await host.release?.(key);
    },
    async close() {
      await Promise.all([sandbox.close?.(), host.close?.()]);
    },
  };
}
