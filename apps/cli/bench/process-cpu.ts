// CPU time of this process and its descendants, from /proc (Linux), for the profiling load.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

interface ProcessCpu {
  readonly pid: number;
  readonly command: string;
  /** User plus system CPU time, in milliseconds. */
  readonly cpuMs: number;
  /** The part of it spent in the kernel (system calls: pipe and socket reads and writes). */
  readonly systemMs: number;
}

function stat(pid: number): { ppid: number; command: string; cpuMs: number; systemMs: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1, 4).join(' ');
    return {
      ppid: Number(fields[1]),
      command,
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
      systemMs: (Number(fields[12]) * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** This process and every process below it, with their CPU time so far. */
export function processTreeCpu(root: number = process.pid): ProcessCpu[] {
  const all = new Map<number, NonNullable<ReturnType<typeof stat>>>();
  for (const entry of readdirSync('/proc'))
    if (/^\d+$/.test(entry)) {
      const found = stat(Number(entry));
      if (found) all.set(Number(entry), found);
    }
  const tree: ProcessCpu[] = [];
  const visit = (pid: number): void => {
    const found = all.get(pid);
    if (!found) return;
    tree.push({ pid, command: found.command, cpuMs: found.cpuMs, systemMs: found.systemMs });
    for (const [child, info] of all) if (info.ppid === pid) visit(child);
  };
  visit(root);
  return tree;
}
