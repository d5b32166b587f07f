import { readFileSync, readdirSync } from 'node:fs';

function parentOf(pid: string): { parent: number; group: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', parent: Number(fields[1]), group: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** All descendants of `pid` (children, grandchildren...) from `/proc`; empty where there is no `/proc`. */
export function listDescendants(pid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = parentOf(name);
    if (!info) continue;
    const list = children.get(info.parent) ?? [];
    list.push(Number(name));
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

/** Live (non-zombie) members of a process group, from `/proc`; empty where there is no `/proc`. */
export function listGroupMembers(groupId: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = parentOf(name);
    if (info && info.group === groupId && info.state !== 'Z' && info.state !== 'X')
      members.push(Number(name));
  }
  return members;
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
