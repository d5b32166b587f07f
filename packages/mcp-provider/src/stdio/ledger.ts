import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_PROC, readProcessSync } from './proc.js';
import { MARKER_VARIABLE, type ProcessTreeTarget, killMarkedSync } from './process-tree.js';

/** One started server, as written to the ledger. */
export interface LedgerEntry extends ProcessTreeTarget {
  readonly server: string;
  readonly command: string;
  readonly startedAt: number;
}

/** Default run directory: `<tmp>/toolplane-mcp-<uid>`. */
export function defaultRunDirectory(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `toolplane-mcp-${uid}`);
}

function ownerIdentity(pid: number): string | undefined {
  if (!HAS_PROC) return String(pid);
  const entry = readProcessSync(pid);
  return entry ? `${pid}-${entry.startTime}` : undefined;
}

/** This process's ledger file name: pid plus start time, so a reused pid is not mistaken for us. */
function ownLedgerName(): string {
  return `owner-${ownerIdentity(process.pid) ?? process.pid}.jsonl`;
}

/**
 * A small file per parent process in the run directory listing the stdio servers it started,
 * so the next start after a crash (or `kill -9` of the parent) can reap what was left running.
 */
export class ProcessLedger {
  private readonly file: string;
  private prepared = false;
  /** The lines of the servers that run, by marker: what the file holds. */
  private readonly live = new Map<string, string>();

  constructor(readonly directory: string = defaultRunDirectory()) {
    this.file = join(directory, ownLedgerName());
  }

  /** Records a started server. Best effort: a read-only run directory only loses the ledger. */
  record(entry: LedgerEntry): void {
    const line = `${JSON.stringify(entry)}\n`;
    if (entry.marker !== undefined) this.live.set(entry.marker, line);
    try {
      if (!this.prepared) {
        mkdirSync(this.directory, { recursive: true, mode: 0o700 });
        this.prepared = true;
      }
      appendFileSync(this.file, line, { mode: 0o600 });
    } catch {
      // the ledger is a safety net, never a reason to fail a start
    }
  }

  /**
   * Takes a server whose whole tree is gone off the ledger: the file lists the servers that
   * run, and goes when none does. It kept every server ever started, so a host that restarts
   * servers (or stops lazy ones when idle) grew it for as long as it ran.
   */
  forget(marker: string): void {
    if (!this.live.delete(marker)) return;
    try {
      if (this.live.size === 0) rmSync(this.file, { force: true });
      else writeFileSync(this.file, [...this.live.values()].join(''), { mode: 0o600 });
    } catch {
      // best effort, as record
    }
  }

  /** Removes this process's ledger (every server it started has been stopped). */
  clear(): void {
    rmSync(this.file, { force: true });
  }

  /**
   * Kills leftovers of parents that are gone: for each ledger whose owner process no longer
   * exists, SIGKILLs every process still carrying a recorded marker, then deletes the ledger.
   * Returns the number of ledgers reaped.
   */
  reapStale(): number {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return 0;
    }
    let reaped = 0;
    for (const name of names) {
      const match = /^owner-(\d+)(?:-(\d+))?\.jsonl$/.exec(name);
      if (!match) continue;
      const identity = match[2] === undefined ? match[1] : `${match[1]}-${match[2]}`;
      if (ownerIdentity(Number(match[1])) === identity) continue; // owner still running
      const path = join(this.directory, name);
      const markers: string[] = [];
      try {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          if (!line.trim()) continue;
          const entry = JSON.parse(line) as LedgerEntry;
          // Only the marker identifies a leftover safely: the pid may have been reused.
          if (typeof entry.marker === 'string') markers.push(entry.marker);
        }
      } catch {
        // a torn line: reap what parsed
      }
      killMarkedSync(markers);
      rmSync(path, { force: true });
      reaped++;
    }
    return reaped;
  }
}

export { MARKER_VARIABLE };
