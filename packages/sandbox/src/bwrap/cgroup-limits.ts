import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A per-command cgroup (v1: one per controller; v2: one) holding the pids and memory limits. */
export interface CommandCgroup {
  /** Directories whose `cgroup.procs` the command's first process joins. */
  readonly directories: readonly string[];
  /** Processes in the cgroup now. */
  members(): number[];
  /** Moves a process into the cgroup (its later children follow); false when it could not. */
  join(pid: number): boolean;
  /** How many processes the memory limit has killed in this cgroup so far. */
  oomKills(): number;
  /** Removes the cgroup (after its processes are gone); false when it still has members. */
  remove(): boolean;
}

const ROOT = '/sys/fs/cgroup';
const GROUP = 'toolplane-sandbox';

function write(path: string, value: string): boolean {
  try {
    writeFileSync(path, value);
    return true;
  } catch {
    return false;
  }
}

function readNumbers(path: string): number[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map(Number);
  } catch {
    return [];
  }
}

function counter(path: string, name: string): number {
  try {
    const line = readFileSync(path, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.split(' ')[1]);
  } catch {
    return 0;
  }
}

function make(directory: string): boolean {
  try {
    mkdirSync(directory, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a cgroup for one command with its pids and memory limits, or returns undefined where
 * this process cannot (not root, no writable cgroup file system): the limits then do not apply,
 * which {@link cgroupsAvailable} lets a doctor check say.
 */
export function createCommandCgroup(
  id: string,
  limits: { pids: number; memoryBytes: number },
): CommandCgroup | undefined {
  if (existsSync(join(ROOT, 'cgroup.controllers'))) {
    const directory = join(ROOT, GROUP, id);
    if (!make(join(ROOT, GROUP))) return undefined;
    write(join(ROOT, GROUP, 'cgroup.subtree_control'), '+pids +memory');
    if (!make(directory)) return undefined;
    const limited =
      write(join(directory, 'pids.max'), String(limits.pids)) &&
      write(join(directory, 'memory.max'), String(limits.memoryBytes));
    write(join(directory, 'memory.swap.max'), '0');
    const cgroup = unifiedCgroup(directory);
    if (!limited) {
      cgroup.remove();
      return undefined;
    }
    return cgroup;
  }
  const pids = join(ROOT, 'pids', GROUP, id);
  const memory = join(ROOT, 'memory', GROUP, id);
  if (!make(pids) || !make(memory)) return undefined;
  const limited =
    write(join(pids, 'pids.max'), String(limits.pids)) &&
    write(join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
  // Where swap is accounted, memory plus swap gets the same limit.
  write(join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
  const cgroup: CommandCgroup = {
    directories: [pids, memory],
    members: () => [
      ...new Set([...readNumbers(join(pids, 'cgroup.procs')), ...readNumbers(join(memory, 'cgroup.procs'))]),
    ],
    join: (pid) =>
      write(join(pids, 'cgroup.procs'), String(pid)) && write(join(memory, 'cgroup.procs'), String(pid)),
    oomKills: () => counter(join(memory, 'memory.oom_control'), 'oom_kill'),
    remove: () => {
      let removed = true;
      for (const directory of [pids, memory]) {
        try {
          rmdirSync(directory);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') removed = false;
        }
      }
      return removed;
    },
  };
  if (!limited) {
    cgroup.remove();
    return undefined;
  }
  return cgroup;
}

function unifiedCgroup(directory: string): CommandCgroup {
  return {
    directories: [directory],
    members: () => readNumbers(join(directory, 'cgroup.procs')),
    join: (pid) => write(join(directory, 'cgroup.procs'), String(pid)),
    oomKills: () => counter(join(directory, 'memory.events'), 'oom_kill'),
    remove: () => {
      try {
        rmdirSync(directory);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ENOENT';
      }
    },
  };
}

/** Whether per-command cgroups can be made here (so bubblewrap's pids and memory limits apply). */
export function cgroupsAvailable(): boolean {
  const probe = createCommandCgroup(`probe-${process.pid}`, { pids: 8, memoryBytes: 16 * 1024 * 1024 });
  if (!probe) return false;
  probe.remove();
  return true;
}

/**
 * Per-command cgroups kept for reuse: making and removing a memory cgroup costs more than the
 * jail itself, so a cgroup whose command ended (and that is empty) serves the next command.
 */
export class CgroupPool {
  private readonly free: CommandCgroup[] = [];
  private readonly all = new Set<CommandCgroup>();
  private readonly prefix: string;
  private count = 0;
  private readonly limits: { pids: number; memoryBytes: number };

  constructor(prefix: string, limits: { pids: number; memoryBytes: number }) {
    this.prefix = prefix;
    this.limits = limits;
    removeLeftoverCgroups();
  }

  /** A cgroup for one command, or undefined where none can be made. */
  acquire(): CommandCgroup | undefined {
    const reused = this.free.pop();
    if (reused) return reused;
    const made = createCommandCgroup(`${this.prefix}-${this.count++}`, this.limits);
    if (made) this.all.add(made);
    return made;
  }

  /** Gives back a cgroup whose command ended; one with processes left is removed when it can be. */
  release(cgroup: CommandCgroup): void {
    if (cgroup.members().length === 0 && this.free.length < 16) this.free.push(cgroup);
    else if (cgroup.remove()) this.all.delete(cgroup);
  }

  /** Removes every cgroup of the pool. */
  close(): void {
    for (const cgroup of this.all) cgroup.remove();
    this.all.clear();
    this.free.length = 0;
  }
}

/**
 * Removes the empty per-command cgroups of processes that are gone (named `PID-...` by their
 * pool): an executor that was never closed leaves its cgroups behind.
 */
function removeLeftoverCgroups(): void {
  for (const parent of [join(ROOT, GROUP), join(ROOT, 'pids', GROUP), join(ROOT, 'memory', GROUP)]) {
    let names: string[];
    try {
      names = readdirSync(parent, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      try {
        process.kill(pid, 0);
        continue;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
      }
      try {
        rmdirSync(join(parent, name));
      } catch {
        // still has processes, or already gone
      }
    }
  }
}
