/** Byte positions of every `stride`-th line of one version of a file. */
interface FileIndex {
  readonly size: number;
  readonly mtimeMs: number;
  /** checkpoints[k] is the byte offset where line `k * stride + 1` starts. */
  readonly checkpoints: number[];
}

/**
 * Remembers where lines start in large files, so a read deep into a file scans it once and
 * later reads jump close to their offset. Bounded: a few files, a checkpoint every `stride` lines.
 */
export class LineIndexCache {
  private readonly files = new Map<string, FileIndex>();

  constructor(
    readonly stride = 8192,
    private readonly maxFiles = 16,
  ) {}

  /** The nearest known line start at or before `line` (1-based). */
  nearest(key: string, size: number, mtimeMs: number, line: number): { line: number; offset: number } {
    const index = this.files.get(key);
    if (!index || index.size !== size || index.mtimeMs !== mtimeMs) return { line: 1, offset: 0 };
    const slot = Math.min(Math.floor((line - 1) / this.stride), index.checkpoints.length - 1);
    return { line: slot * this.stride + 1, offset: index.checkpoints[slot] ?? 0 };
  }

  /** Records that `line` (1-based) starts at `offset`; only stride-aligned lines are kept. */
  record(key: string, size: number, mtimeMs: number, line: number, offset: number): void {
    if ((line - 1) % this.stride !== 0) return;
    let index = this.files.get(key);
    if (!index || index.size !== size || index.mtimeMs !== mtimeMs) {
      index = { size, mtimeMs, checkpoints: [0] };
      this.files.delete(key);
      this.files.set(key, index);
      if (this.files.size > this.maxFiles) {
        const oldest = this.files.keys().next().value;
        if (oldest !== undefined) this.files.delete(oldest);
      }
    }
    const slot = (line - 1) / this.stride;
    if (slot === index.checkpoints.length) index.checkpoints.push(offset);
  }
}
