import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Set on every container this package creates. */
export const SANDBOX_LABEL = 'dev.toolplane.sandbox';
/** `host:pid:start` of the process that created the container, to find the ones a crash left. */
export const OWNER_LABEL = 'dev.toolplane.sandbox.owner';
/** A hash of the sandbox key (the key itself may be a session id worth keeping private). */
export const KEY_LABEL = 'dev.toolplane.sandbox.key';

/** When a process started (clock ticks after boot), or undefined where /proc cannot tell. */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The owner label value of this process. */
export function ownerOf(pid: number = process.pid): string {
  return `${hostname()}:${pid}:${processStartTicks(pid) ?? '?'}`;
}

/**
 * True when the owner label names a process of this machine that is gone (or whose pid now
 * belongs to another process): its containers are leftovers of a crash.
 */
export function ownerIsGone(owner: string): boolean {
  const [host, pidText, start] = owner.split(':');
  if (host !== hostname()) return false; // another machine's: not ours to judge
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = processStartTicks(pid);
  return start !== '?' && now !== undefined && now !== start;
}

/** The key label value of a sandbox key. */
export function keyLabel(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}
