import { readFileSync, readdirSync } from 'node:fs';

interface ProcessStat {
  readonly parent: number;
  readonly group: number;
  readonly state: string;
  /** Clock ticks after boot when the process started (field 22 of `/proc/PID/stat`). */
  readonly startTicks: number;
}

function parentOf(pid: string): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      state: fields[0] ?? '',
      parent: Number(fields[1]),
      group: Number(fields[2]),
      startTicks: Number(fields[19]),
    };
  } catch {
    return undefined;
  }
}

/** When a process started (clock ticks after boot), from `/proc`; undefined where unknown. */
export function startTicksOf(pid: number): number | undefined {
  const ticks = parentOf(String(pid))?.startTicks;
  return ticks === undefined || Number.isNaN(ticks) ? undefined : ticks;
}

function holdsEntry(pid: string, entry: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false; // gone, or another user's process
  }
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}

/** Every process in `/proc` with its stat, read once; empty where there is no `/proc`. */
function readProcesses(): Map<number, ProcessStat> {
  const processes = new Map<number, ProcessStat>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return processes;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = parentOf(name);
    if (info) processes.set(Number(name), info);
  }
  return processes;
}

const live = (info: ProcessStat): boolean => info.state !== 'Z' && info.state !== 'X';

/** All descendants of `pid` (children, grandchildren...) among `processes`. */
function descendantsOf(pid: number, processes: ReadonlyMap<number, ProcessStat>): number[] {
  const children = new Map<number, number[]>();
  for (const [child, info] of processes) {
    const list = children.get(info.parent) ?? [];
    list.push(child);
    children.set(info.parent, list);
  }
  const result: number[] = [];
  const queue = [pid];
  const seen = new Set<number>([pid]);
  while (queue.length > 0) {
    const current = queue.shift() as number;
    for (const child of children.get(current) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      result.push(child);
      queue.push(child);
    }
  }
  return result;
}

/**
 * The processes of a command whose shell is `pid`, from one read of `/proc` (empty where there
 * is none): its descendants; the live members of its process group (`pid` leads it); and the
 * live processes started at or after `notBefore` (clock ticks after boot) whose environment, as
 * they were started, holds `markEntry` (`NAME=value`), wherever they moved (a daemon that forked
 * twice and called `setsid` is neither a descendant nor in the group any more, but it inherited
 * the mark; only this user's processes can be read). A process may be listed more than once.
 */
export function listCommandProcesses(
  pid: number,
  markEntry: string,
  notBefore: number | undefined,
): number[] {
  const processes = readProcesses();
  const group: number[] = [];
  const marked: number[] = [];
  const needle = Buffer.from(`${markEntry}\0`);
  for (const [member, info] of processes) {
    if (!live(info)) continue;
    if (info.group === pid) group.push(member);
    if (notBefore !== undefined && info.startTicks < notBefore) continue;
    if (holdsEntry(String(member), needle)) marked.push(member);
  }
  return [...descendantsOf(pid, processes), ...group, ...marked];
}

/** True while a process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const info = parentOf(String(pid));
  return info === undefined ? true : info.state !== 'Z' && info.state !== 'X';
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Signals a process group (`-pgid`) and every listed process. Descendants are listed as well
 * as the group because a grandchild may have moved to a group or session of its own.
 */
export function signalTree(groupId: number, pids: readonly number[], signal: NodeJS.Signals): void {
  send(-groupId, signal);
  for (const pid of pids) send(pid, signal);
}
