import { setTimeout as sleep } from 'node:timers/promises';
import treeKill from 'tree-kill';
import {
  HAS_PROC,
  descendantsOf,
  isAlive,
  listProcesses,
  listProcessesSync,
  pidsWithEnvironment,
  pidsWithEnvironmentSync,
} from './proc.js';

/** Name of the environment variable that marks every process of one server. */
export const MARKER_VARIABLE = 'TOOLPLANE_MCP_MARKER';

/** What identifies the processes of one stdio server. */
export interface ProcessTreeTarget {
  /** The direct child. */
  readonly pid: number;
  /** Its process group (the child was spawned detached, so it leads its own group). */
  readonly pgid?: number;
  /** Value of {@link MARKER_VARIABLE} in the server's environment. */
  readonly marker?: string;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined || pgid <= 1 || process.platform === 'win32') return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // group empty
  }
}

async function collect(target: ProcessTreeTarget): Promise<Set<number>> {
  const pids = new Set<number>([target.pid]);
  if (!HAS_PROC) return pids;
  const processes = await listProcesses();
  for (const pid of descendantsOf(processes, [target.pid])) pids.add(pid);
  if (target.pgid !== undefined) {
    for (const entry of processes) if (entry.pgid === target.pgid) pids.add(entry.pid);
  }
  if (target.marker) {
    const marked = await pidsWithEnvironment(MARKER_VARIABLE, [target.marker]);
    for (const pid of marked.get(target.marker) ?? []) pids.add(pid);
  }
  pids.delete(process.pid);
  for (const pid of pids) if (pid <= 1) pids.delete(pid);
  return pids;
}

function treeKillAsync(pid: number, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => treeKill(pid, signal, () => resolve()));
}

/**
 * Ends a server's whole process tree, grandchildren included: SIGTERM to its process group,
 * to every descendant found by walking `/proc` and to every process carrying its marker
 * variable (re-parented or `setsid` ones too); after `graceMs`, SIGKILL to whatever is left.
 * Without `/proc` (macOS, Windows) it falls back to tree-kill. Resolves with the pids signalled.
 *
 * @example
 * await killProcessTree({ pid: child.pid, pgid: child.pid, marker }, { graceMs: 1000 });
 */
export async function killProcessTree(
  target: ProcessTreeTarget,
  options: { graceMs?: number } = {},
): Promise<number[]> {
  const graceMs = options.graceMs ?? 1000;
  if (!HAS_PROC) {
    await treeKillAsync(target.pid, 'SIGTERM');
    signalGroup(target.pgid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isAlive(target.pid) && Date.now() < deadline) await sleep(25);
    if (isAlive(target.pid)) await treeKillAsync(target.pid, 'SIGKILL');
    signalGroup(target.pgid, 'SIGKILL');
    return [target.pid];
  }
  const first = await collect(target);
  signalGroup(target.pgid, 'SIGTERM');
  for (const pid of first) signalPid(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let alive = [...first].filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(20);
    alive = alive.filter(isAlive);
  }
  // Collect again: a process may have forked while we waited.
  const second = await collect(target);
  signalGroup(target.pgid, 'SIGKILL');
  for (const pid of new Set([...alive, ...second])) if (isAlive(pid)) signalPid(pid, 'SIGKILL');
  return [...new Set([...first, ...second])];
}

/**
 * SIGKILLs trees at once, synchronously: for `process.on('exit')`, where nothing async runs.
 */
export function killProcessTreesSync(targets: readonly ProcessTreeTarget[]): void {
  if (targets.length === 0) return;
  const pids = new Set<number>();
  for (const target of targets) {
    signalGroup(target.pgid, 'SIGKILL');
    if (target.pid > 1) pids.add(target.pid);
  }
  if (HAS_PROC) {
    try {
      const processes = listProcessesSync();
      const roots = targets.map((target) => target.pid).filter((pid) => pid > 1);
      for (const pid of descendantsOf(processes, roots)) pids.add(pid);
      const markers = targets.map((target) => target.marker).filter((marker): marker is string => !!marker);
      for (const pid of pidsWithEnvironmentSync(MARKER_VARIABLE, markers)) pids.add(pid);
    } catch {
      // /proc unreadable: the group kill above is what we can do
    }
  }
  pids.delete(process.pid);
  for (const pid of pids) if (pid > 1) signalPid(pid, 'SIGKILL');
}

/** SIGKILLs every process whose environment carries one of the markers (synchronously). */
export function killMarkedSync(markers: readonly string[]): number {
  if (markers.length === 0 || !HAS_PROC) return 0;
  const pids = pidsWithEnvironmentSync(MARKER_VARIABLE, markers).filter(
    (pid) => pid > 1 && pid !== process.pid,
  );
  for (const pid of pids) signalPid(pid, 'SIGKILL');
  return pids.length;
}
