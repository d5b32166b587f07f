import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '@toolplane/core';
import { OutputWorkers } from './output-workers.js';

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
  /** Set by `close()`: nothing is stored from then on. */
  private closed = false;
  /** Writes in progress, which `close()` waits for before it removes the directory. */
  private readonly writing = new Set<Promise<unknown>>();

  constructor(options: OutputStoreOptions = {}) {
    this.dir = options.dir ?? join(tmpdir(), `toolplane-${process.pid}-${randomUUID().slice(0, 8)}`);
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Stores one output. After `close()` (a result capped late: a slow middleware still held it)
   * it stores nothing and throws `CANCELLED`: before, it made the directory again and the file
   * stayed on disk for good. A write `close()` finds running is waited for, then removed.
   */
  async put(sessionId: string, text: string, bytes: number): Promise<StoredOutput> {
    if (this.closed) throw closedError();
    this.sweep();
    this.created ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    const id = randomUUID();
    const file = join(this.dir, `${id}.txt`);
    const write = this.created.then(() => writeFile(file, text, { mode: 0o600 }));
    this.writing.add(write);
    try {
      await write;
    } finally {
      this.writing.delete(write);
    }
    // close() ran meanwhile: it removes the directory once this write is over
    if (this.closed) throw closedError();
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
    this.closed = true;
    this.outputs.clear();
    await this.workers.close();
    // a file written after the directory was removed would stay behind (or fail its removal)
    await Promise.allSettled([...this.writing]);
    if (this.created) await rm(this.dir, { recursive: true, force: true });
    this.created = undefined;
  }
}

function closedError(): ToolError {
  return new ToolError(
    'CANCELLED',
    'the orchestrator closed before the output could be stored; nothing was kept (create a new orchestrator to call again)',
  );
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
