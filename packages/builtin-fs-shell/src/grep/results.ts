/** One line of a content search: a match or a context line. */
export interface LineHit {
  readonly line: number;
  readonly text: string;
  readonly match: boolean;
  /** Byte offset of the line's start in the file, when the engine reports it (ripgrep). */
  readonly offset?: number;
}

/** What a search found in one file. */
export interface FileHits {
  /** Path relative to the search root, with `/`. */
  readonly path: string;
  /** Matching lines (content mode: with context lines). */
  readonly lines: LineHit[];
  /** Number of matching lines. */
  readonly count: number;
}

/** What a search engine returns; the same shape from ripgrep and from the Node search. */
export interface SearchOutcome {
  readonly files: FileHits[];
  /** True when the engine stopped early (hard caps of a runaway search). */
  readonly incomplete: boolean;
  readonly engine: 'ripgrep' | 'node';
  /** What the model should know about how the search ran (an engine that took over). */
  readonly note?: string;
}

/** Sorts by path, byte order, so both engines list files the same way. */
export function byPath(a: FileHits, b: FileHits): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
