import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputWorkers } from './internal/output-workers.js';

/** Options of the overflow store. */
export interface OutputStoreOptions {
  /** Per-run directory; default `<tmpdir>/toolplane-<pid>-<random>`, created on first use. */
  readonly dir?: string;
  /** How long a handle stays readable (default 30 minutes). */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** One stored output. */
export interface StoredOutput {
  readonly handle: string;
  readonly file: string;
  readonly sessionId: string;
  readonly bytes: number;
  readonly lines: number;
  readonly expiresAt: number;
}

/**
 * Whole outputs too large for the model, one file each in a per-run directory. Handles are
 * looked up in memory, never turned into paths, so a handle cannot reach another file; a
 * handle is readable only by the session that produced it, until it expires.
 */
export class OutputStore {
  readonly dir: string;
  readonly ttlMs: number;
  /** The worker threads that grep and query the stored outputs. */
  readonly workers = new OutputWorkers();
  private readonly now: () => number;
  private readonly outputs = new Map<string, StoredOutput>();
  private created: Promise<void> | undefined;

  constructor(options: OutputStoreOptions = {}) {
    this.dir = options.dir ?? join(tmpdir(), `toolplane-${process.pid}-${randomUUID().slice(0, 8)}`);
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async put(sessionId: string, text: string, bytes: number): Promise<StoredOutput> {
    this.sweep();
    this.created ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    await this.created;
    const id = randomUUID();
    const file = join(this.dir, `${id}.txt`);
    await writeFile(file, text, { mode: 0o600 });
    const stored: StoredOutput = {
      handle: `out_${id}`,
      file,
      sessionId,
      bytes,
      lines: countLines(text),
      expiresAt: this.now() + this.ttlMs,
    };
    this.outputs.set(stored.handle, stored);
    return stored;
  }

  /** The stored output for a handle, if it exists, has not expired and belongs to `sessionId`. */
  get(handle: string, sessionId: string): StoredOutput | undefined {
    this.sweep();
    const stored = this.outputs.get(handle);
    if (!stored || stored.sessionId !== sessionId) return undefined;
    return stored;
  }

  /** Deletes expired outputs. */
  sweep(): void {
    const now = this.now();
    for (const [handle, stored] of this.outputs) {
      if (stored.expiresAt > now) continue;
      this.outputs.delete(handle);
      void rm(stored.file, { force: true });
    }
  }

  async close(): Promise<void> {
    this.outputs.clear();
    await this.workers.close();
    if (this.created) await rm(this.dir, { recursive: true, force: true });
    this.created = undefined;
  }
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  let at = text.indexOf('\n');
  while (at !== -1) {
    lines++;
    at = text.indexOf('\n', at + 1);
  }
  return text.endsWith('\n') ? lines - 1 : lines;
}
