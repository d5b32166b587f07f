import type { SearchPattern } from './pattern.js';

/** Output modes of `grep`. */
export type GrepMode = 'content' | 'files_with_matches' | 'count';

/** One search, as both engines receive it. */
export interface SearchRequest {
  /** Absolute real directory (or file) to search. */
  readonly root: string;
  readonly rootIsFile: boolean;
  readonly pattern: SearchPattern;
  readonly mode: GrepMode;
  /** Include globs (any may match) and exclude globs (leading `!`). */
  readonly globs: readonly string[];
  /** Globs of the requested file type, if any. */
  readonly typeGlobs?: readonly string[];
  readonly before: number;
  readonly after: number;
  readonly respectGitignore: boolean;
  /** Directory names never entered (`.git`, `node_modules`). */
  readonly skipDirectories: readonly string[];
  readonly signal?: AbortSignal;
  /** Stop collecting after this many matching lines in total (runaway guard). */
  readonly hardMatchCap: number;
}
