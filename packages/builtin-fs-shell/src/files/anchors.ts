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
    const at = this.firstAtOrAfter(offset);
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
    let low = 0;
    let high = this.newlines.length;
    // The first slot with more than `most` newlines; the one before it is the answer.
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.newlines[middle] as number) <= most) low = middle + 1;
      else high = middle;
    }
    return this.at(low - 1);
  }

  /** The first checkpoint with at least `least` newlines before it. */
  after(least: number): Checkpoint | undefined {
    let low = 0;
    let high = this.newlines.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.newlines[middle] as number) < least) low = middle + 1;
      else high = middle;
    }
    return this.at(low);
  }

  /** Drops the checkpoints at or before `offset` (the counted-from-the-start part reached them). */
  dropThrough(offset: number): void {
    const keep = this.firstAtOrAfter(offset + 1);
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

  /** The first slot whose offset is at least `offset`. */
  private firstAtOrAfter(offset: number): number {
    let low = 0;
    let high = this.offsets.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.offsets[middle] as number) < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
