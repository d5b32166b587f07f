import { readFileSync, readdirSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';

/** One process as `/proc/<pid>/stat` describes it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
  /** Start time in clock ticks since boot: with the pid, identifies a process across pid reuse. */
  readonly startTime: number;
}

/** Whether `/proc` can be read (Linux). Elsewhere the tree is killed with tree-kill. */
export const HAS_PROC: boolean = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/** Parses `/proc/<pid>/stat`; the command name may hold spaces and parentheses. */
export function parseStat(text: string): ProcessEntry | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number.parseInt(text.slice(0, text.indexOf(' ')), 10);
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0] ?? '?';
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const startTime = Number(fields[19]);
  if (!Number.isFinite(pid) || !Number.isFinite(ppid)) return undefined;
  return { pid, ppid, pgid, state, startTime };
}

function numericNames(names: readonly string[]): number[] {
  const out: number[] = [];
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code >= 48 && code <= 57) out.push(Number(name));
  }
  return out;
}

/** One process's stat, or undefined when it is gone. */
export function readProcessSync(pid: number): ProcessEntry | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every process visible in `/proc`, synchronously (for exit hooks). */
export function listProcessesSync(): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  for (const pid of numericNames(readdirSync('/proc'))) {
    const entry = readProcessSync(pid);
    if (entry) out.push(entry);
  }
  return out;
}

/** Every process visible in `/proc`. */
export async function listProcesses(): Promise<ProcessEntry[]> {
  const pids = numericNames(await readdir('/proc'));
  const entries = await Promise.all(
    pids.map(async (pid) => {
      try {
        return parseStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return undefined;
      }
    }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** Pids of all descendants of `roots` (not the roots), breadth first. */
export function descendantsOf(processes: readonly ProcessEntry[], roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of processes) {
    const list = children.get(entry.ppid);
    if (list) list.push(entry.pid);
    else children.set(entry.ppid, [entry.pid]);
  }
  const out: number[] = [];
  const queue = [...roots];
  const seen = new Set(roots);
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function environHas(environ: Buffer, needle: Buffer): boolean {
  let at = environ.indexOf(needle);
  while (at >= 0) {
    if (at === 0 || environ[at - 1] === 0) return true;
    at = environ.indexOf(needle, at + 1);
  }
  return false;
}

/**
 * Pids whose environment holds `name=value` exactly: every process a server started inherits
 * its marker variable, even after re-parenting or `setsid`, so this finds what a tree walk misses.
 */
export async function pidsWithEnvironment(
  name: string,
  values: readonly string[],
): Promise<Map<string, number[]>> {
  const needles = values.map((value) => [value, Buffer.from(`${name}=${value}\0`)] as const);
  const found = new Map<string, number[]>();
  const pids = numericNames(await readdir('/proc'));
  await Promise.all(
    pids.map(async (pid) => {
      if (pid === process.pid) return;
      let environ: Buffer;
      try {
        environ = await readFile(`/proc/${pid}/environ`);
      } catch {
        return;
      }
      for (const [value, needle] of needles) {
        if (environHas(environ, needle)) {
          const list = found.get(value);
          if (list) list.push(pid);
          else found.set(value, [pid]);
        }
      }
    }),
  );
  return found;
}

/** Synchronous {@link pidsWithEnvironment}, for exit hooks. */
export function pidsWithEnvironmentSync(name: string, values: readonly string[]): number[] {
  const needles = values.map((value) => Buffer.from(`${name}=${value}\0`));
  const out: number[] = [];
  for (const pid of numericNames(readdirSync('/proc'))) {
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    if (needles.some((needle) => environHas(environ, needle))) out.push(pid);
  }
  return out;
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  if (HAS_PROC) {
    const entry = readProcessSync(pid);
    return entry !== undefined && entry.state !== 'Z' && entry.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
