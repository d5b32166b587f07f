// What a newline count is asked (a job over a byte range), what it answers, and the messages
// its threads send back.

/** A count over a byte range of an open file, split among threads. */
export interface CountJob {
  /** An open descriptor; it must stay open until the returned promise settles. */
  readonly fd: number;
  /** Where counting starts (a known checkpoint). */
  readonly start: number;
  /** Newlines before `start`. */
  readonly newlines: number;
  /** Where counting stops (exclusive), usually the file size. */
  readonly end: number;
  /**
   * Stop at the segment holding this newline (counted from the start of the file, 1-based):
   * the result is then the checkpoint just before that segment. Omit to count to `end`.
   */
  readonly until?: number;
  /** Called in file order with each segment's end and the newlines before it. */
  readonly onCheckpoint?: (offset: number, newlines: number) => void;
  readonly signal?: AbortSignal;
}

/** How far a count got: `newlines` "\n" bytes come before byte `offset`. */
export interface CountReach {
  readonly offset: number;
  readonly newlines: number;
}

/** Options of `CountThreads`. */
export interface CountThreadsOptions {
  /** Threads (default: the machine's parallelism, at most 4). */
  readonly threads?: number;
  /** Bytes a thread claims at a time (default 4 MiB). */
  readonly blockBytes?: number;
  /** Bytes between two checkpoints (default 1 MiB); divides `blockBytes`. */
  readonly segmentBytes?: number;
  /** Bytes of one read (default 256 KiB: the buffer stays in the core's cache while it is counted). */
  readonly chunkBytes?: number;
  /** Idle threads exit after this long (default 30 s). */
  readonly idleMs?: number;
}

/** What a counting thread tells the caller's thread. */
export type WorkerMessage =
  | { readonly id: number; readonly type: 'block'; readonly block: number; readonly counts: number[] }
  | { readonly id: number; readonly type: 'failed'; readonly message: string }
  | { readonly id: number; readonly type: 'done' }
  | { readonly id: 0; readonly type: 'ready' };
