import type { ExecProcess, ExecResult } from '@toolplane/core';
import { sandboxError } from '../errors.js';

/** How many jails one command may take when its protected paths keep vanishing. */
export const MOUNT_ATTEMPTS = 3;

/** All that bwrap prints when a bind's source is gone as it sets the jail up. */
const SOURCE_GONE = /^bwrap: Can't find source path (\S+): No such file or directory$/;

/**
 * Whether a jail failed because a bind source in `sources` vanished before bwrap mounted it. It
 * is told from what bwrap printed: a setup error, or (when the jail was already joined to its
 * cgroup) an exit 1 whose whole output is bwrap's one line about a source this jail mounts.
 */
function sourceVanished(
  outcome: { error?: unknown; result?: ExecResult },
  sources: () => ReadonlySet<string>,
): boolean {
  const stderr = outcome.result
    ? outcome.result.exitCode === 1 && outcome.result.stdout === ''
      ? outcome.result.stderr
      : ''
    : (outcome.error as { details?: { stderr?: unknown } } | undefined)?.details?.stderr;
  const path = typeof stderr === 'string' ? SOURCE_GONE.exec(stderr.trim())?.[1] : undefined;
  return path !== undefined && sources().has(path);
}

/** One launched jail, and the host paths it bind-mounts as protected paths. */
export interface Launched {
  readonly process: ExecProcess;
  readonly sources: ReadonlySet<string>;
}

/**
 * One command as a process that launches its jail again (at most `attempts` jails) when bwrap
 * could not mount a protected path because its source vanished: a placeholder made by another
 * process on the same workspace, found here and removed by that process when its own sandbox
 * ended. The next launch looks the paths up again and makes this process's own placeholder. Any
 * other outcome, a kill, or the last attempt's failure settles the command as it is.
 */
export function relaunchWhenSourceVanished(launch: () => Launched, attempts: number): ExecProcess {
  let current = launch();
  let killed = false;
  const vanished = (outcome: { error?: unknown; result?: ExecResult }): boolean =>
    !killed && sourceVanished(outcome, () => current.sources);
  const done = (async (): Promise<ExecResult> => {
    for (let attempt = 1; ; attempt++) {
      let result: ExecResult;
      try {
        result = await current.process.done;
      } catch (error) {
        if (attempt >= attempts || !vanished({ error })) throw error;
        current = launch();
        continue;
      }
      if (!vanished({ result })) return result;
      // the command never ran: bwrap stopped setting the jail up, so say that, not exit 1
      if (attempt >= attempts)
        throw sandboxError(
          'SANDBOX_START_FAILED',
          `bubblewrap could not start the jail ${attempts} times: ${result.stderr.trim()} (a protected path of the workspace keeps vanishing: another process is making and removing it)`,
          { details: { stderr: result.stderr.trim(), attempts } },
        );
      current = launch();
    }
  })();
  done.catch(() => undefined);
  return {
    get pid() {
      return current.process.pid;
    },
    done,
    async kill() {
      killed = true;
      await current.process.kill();
    },
  };
}
