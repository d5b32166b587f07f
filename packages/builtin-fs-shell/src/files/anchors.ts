import type { Checkpoint } from './line-index.js';

/**
 * Exact checkpoints of one file that lie past the counted-from-the-start part of its index:
 * the starts of lines a search reported, and what counts from those points recorded. Sorted by
 * offset (so also by newlines), no two closer than `minDistance` bytes, at most `max` (when
 * full, every other one is dropped, which keeps them spread over the file).
 */
export class Anchors {
  private offsets: number[] = [];
  private newlines: number[] = [];

  constructor(
    private readonly minDistance: number,
    private readonly max: number,
  ) {}

  /** Adds a checkpoint unless one lies within `minDistance` bytes of it. */
  add(offset: number, newlines: number): void {
    const at = firstWhere(this.offsets, (existing) => existing >= offset);
    const next = this.offsets[at];
    const previous = this.offsets[at - 1];
    if (next !== undefined && next - offset < this.minDistance) return;
    if (previous !== undefined && offset - previous < this.minDistance) return;
    this.offsets.splice(at, 0, offset);
    this.newlines.splice(at, 0, newlines);
    if (this.offsets.length > this.max) {
      this.offsets = this.offsets.filter((_, slot) => slot % 2 === 0);
      this.newlines = this.newlines.filter((_, slot) => slot % 2 === 0);
    }
  }

  /** The last checkpoint with at most `most` newlines before it. */
  before(most: number): Checkpoint | undefined {
    return this.at(firstWhere(this.newlines, (newlines) => newlines > most) - 1);
  }

  /** The first checkpoint with at least `least` newlines before it. */
  after(least: number): Checkpoint | undefined {
    return this.at(firstWhere(this.newlines, (newlines) => newlines >= least));
  }

  /** Drops the checkpoints at or before `offset` (the counted-from-the-start part reached them). */
  dropThrough(offset: number): void {
    const keep = firstWhere(this.offsets, (at) => at > offset);
    if (keep === 0) return;
    this.offsets.splice(0, keep);
    this.newlines.splice(0, keep);
  }

  /** Number of checkpoints held. */
  get size(): number {
    return this.offsets.length;
  }

  private at(slot: number): Checkpoint | undefined {
    const offset = this.offsets[slot];
    if (slot < 0 || offset === undefined) return undefined;
    return { offset, newlines: this.newlines[slot] as number };
  }
}

/** The first slot of an ascending list where `test` holds (it holds from there on); the length if none. */
function firstWhere(values: readonly number[], test: (value: number) => boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (test(values[middle] as number)) high = middle;
    else low = middle + 1;
  }
  return low;
}
