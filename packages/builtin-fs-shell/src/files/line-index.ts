import { Anchors } from './anchors.js';
import { SEGMENT_BYTES } from './count-serially.js';

/** Which version of a file an index describes; any change to the file changes one of these. */
export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
  /** Inode number: a file replaced by rename has a new one even with the same size and mtime. */
  readonly ino: number;
}

/** A known position: `newlines` "\n" bytes come before byte `offset`. */
export interface Checkpoint {
  readonly offset: number;
  readonly newlines: number;
}

/**
 * Checkpoints of one version of a file. `offsets`/`newlines` (ascending) cover the file from its
 * start with no gap wider than `gapLimit`, so any line in that part is at most that far from
 * one; `anchors` are exact points further on (search hits, counts that started from them).
 */
interface FileIndex {
  readonly version: FileVersion;
  readonly offsets: number[];
  readonly newlines: number[];
  /** Minimum bytes between two checkpoints. */
  readonly spacing: number;
  /** Widest gap between two checkpoints of the covered part. */
  readonly gapLimit: number;
  readonly anchors: Anchors;
  /** True once the covered part reaches the end of the file. */
  complete: boolean;
  /** Lines in the file (a last line without "\n" included), once a count reached its end. */
  totalLines?: number;
}

/** Options of {@link LineIndexCache}. */
export interface LineIndexOptions {
  /** Files remembered at most; the least recently used is dropped (default 16). */
  readonly maxFiles?: number;
  /** Checkpoints per file at most; larger files get sparser ones (default 4096). */
  readonly maxCheckpoints?: number;
  /** Minimum bytes between checkpoints (default 1 MiB). */
  readonly minSpacing?: number;
  /** Anchors per file at most (default 4096). */
  readonly maxAnchors?: number;
}

/** Anchors closer than this to another are not kept: counting the bytes between takes microseconds. */
const ANCHOR_MIN_DISTANCE = 64 * 1024;

/** Whether two versions are the same version of a file. */
export const sameVersion = (a: FileVersion, b: FileVersion): boolean =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/**
 * Remembers how many lines come before points of large files, so a read deep into a file
 * scans at most one checkpoint's spacing. Counts from the start of a file make its covered
 * part; exact points beyond it (where a search found lines, see {@link record}) are kept as
 * anchors, from which a read counts forward or back. Memory is bounded: `maxFiles` files of
 * at most `maxCheckpoints` checkpoints and `maxAnchors` anchors each (16 x 8192 pairs of
 * numbers, about 2 MiB, by default).
 */
export class LineIndexCache {
  private readonly files = new Map<string, FileIndex>();
  private readonly maxFiles: number;
  private readonly maxCheckpoints: number;
  private readonly minSpacing: number;
  private readonly maxAnchors: number;

  constructor(options: LineIndexOptions = {}) {
    this.maxFiles = options.maxFiles ?? 16;
    this.maxCheckpoints = options.maxCheckpoints ?? 4096;
    this.minSpacing = options.minSpacing ?? 1024 * 1024;
    this.maxAnchors = options.maxAnchors ?? 4096;
  }

  /**
   * The furthest checkpoint from which line `line` (1-based) can be found by counting
   * forward: one with fewer than `line - 1` newlines before it, or the start of the file.
   */
  nearest(key: string, version: FileVersion, line: number): Checkpoint {
    const index = this.current(key, version);
    if (!index) return { offset: 0, newlines: 0 };
    const covered = coveredNearest(index, line);
    const anchor = index.anchors.before(line - 2);
    return anchor && anchor.offset > covered.offset ? anchor : covered;
  }

  /**
   * The first anchor at or after the start of line `line`, from which the line can be found
   * by counting back; undefined when none lies past the covered part.
   */
  following(key: string, version: FileVersion, line: number): Checkpoint | undefined {
    return this.current(key, version)?.anchors.after(line - 1);
  }

  /**
   * Whether an anchor lies next to line `line`, so a read there starts close and need not wait
   * for a build counting from the start: the nearest point before the line is an anchor, or an
   * anchor after it is likely within `backBytes` of it (judged by the mean length of the lines
   * before that anchor), the bytes a read counts back from one before giving up.
   */
  anchored(key: string, version: FileVersion, line: number, backBytes: number): boolean {
    const index = this.current(key, version);
    if (!index) return false;
    const before = index.anchors.before(line - 2);
    if (before && before.offset > coveredNearest(index, line).offset) return true;
    const after = index.anchors.after(line - 1);
    if (!after || after.newlines === 0) return false;
    return (after.newlines - (line - 1)) * (after.offset / after.newlines) <= backBytes;
  }

  /** Anchors held for this version of the file. */
  anchorCount(key: string, version: FileVersion): number {
    return this.current(key, version)?.anchors.size ?? 0;
  }

  /** The furthest checkpoint of the part counted from the start of the file. */
  furthest(key: string, version: FileVersion): Checkpoint {
    const index = this.current(key, version);
    if (!index) return { offset: 0, newlines: 0 };
    const last = index.offsets.length - 1;
    return { offset: index.offsets[last] as number, newlines: index.newlines[last] as number };
  }

  /** Whether counts from the start of this version of the file have covered it to its end. */
  isComplete(key: string, version: FileVersion): boolean {
    return this.current(key, version)?.complete === true;
  }

  /**
   * Records an exact count: `newlines` "\n" bytes come before byte `offset`. Within `gapLimit`
   * of the covered part it extends that part (when at least one spacing past its end); further
   * on it becomes an anchor; inside the covered part it adds nothing.
   */
  record(key: string, version: FileVersion, offset: number, newlines: number): void {
    const index = this.current(key, version) ?? this.create(key, version);
    const last = index.offsets[index.offsets.length - 1] as number;
    if (offset <= last) return;
    if (offset - last > index.gapLimit) {
      index.anchors.add(offset, newlines);
      return;
    }
    if (offset - last < index.spacing && offset !== version.size) return;
    index.offsets.push(offset);
    index.newlines.push(newlines);
    index.anchors.dropThrough(offset);
  }

  /**
   * Marks this version as counted to its end: `newlines` "\n" bytes in the whole file, and
   * `totalLines` lines (one more when the last line has no "\n").
   */
  complete(key: string, version: FileVersion, newlines: number, totalLines: number): void {
    this.record(key, version, version.size, newlines);
    const index = this.current(key, version);
    if (!index) return;
    index.complete = index.offsets[index.offsets.length - 1] === version.size;
    index.totalLines = totalLines;
  }

  /** Lines in this version of the file, when a count has reached its end. */
  totalLines(key: string, version: FileVersion): number | undefined {
    return this.current(key, version)?.totalLines;
  }

  /** Drops what is known about a file (only about `version` of it, when given). */
  forget(key: string, version?: FileVersion): void {
    const index = this.files.get(key);
    if (index && (!version || sameVersion(index.version, version))) this.files.delete(key);
  }

  /** Number of files remembered. */
  get size(): number {
    return this.files.size;
  }

  private current(key: string, version: FileVersion): FileIndex | undefined {
    const index = this.files.get(key);
    if (!index) return undefined;
    if (!sameVersion(index.version, version)) return undefined;
    // Most recently used last, so eviction drops the oldest.
    this.files.delete(key);
    this.files.set(key, index);
    return index;
  }

  private create(key: string, version: FileVersion): FileIndex {
    const spacing = Math.max(this.minSpacing, Math.ceil(version.size / this.maxCheckpoints));
    const index: FileIndex = {
      version,
      offsets: [0],
      newlines: [0],
      spacing,
      // Counts report a checkpoint every segment, so the covered part's gaps stay under this.
      gapLimit: spacing + SEGMENT_BYTES,
      anchors: new Anchors(ANCHOR_MIN_DISTANCE, this.maxAnchors),
      complete: false,
    };
    this.files.delete(key);
    this.files.set(key, index);
    while (this.files.size > this.maxFiles) {
      const oldest = this.files.keys().next().value;
      if (oldest === undefined) break;
      this.files.delete(oldest);
    }
    return index;
  }
}

/** The covered part's furthest checkpoint with fewer than `line - 1` newlines before it. */
function coveredNearest(index: FileIndex, line: number): Checkpoint {
  const { offsets, newlines } = index;
  let low = 0;
  let high = newlines.length - 1;
  // The last slot whose newline count is at most line - 2 (slot 0, the start, always qualifies).
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((newlines[middle] as number) <= line - 2) low = middle;
    else high = middle - 1;
  }
  return { offset: offsets[low] as number, newlines: newlines[low] as number };
}

/** The {@link FileVersion} of a stat result. */
export function versionOf(info: { size: number; mtimeMs: number; ino: number }): FileVersion {
  return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
}
