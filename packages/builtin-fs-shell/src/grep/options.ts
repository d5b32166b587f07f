/** How `grep` searches. */
export interface GrepEngineOptions {
  /**
   * Path of the ripgrep binary; by default `rg` is looked up on PATH. `false` always uses the
   * pure-Node search (its output is the same).
   */
  readonly ripgrep?: string | false;
  /**
   * Most memory (heap, in bytes) a ripgrep run may take, set as its `RLIMIT_DATA` through
   * `/bin/sh`'s `ulimit -d`; `false` runs `rg` without a limit. Default {@link RIPGREP_MEMORY_BYTES}.
   */
  readonly ripgrepMemoryBytes?: number | false;
}

/**
 * Default memory allowance of a ripgrep run: 2 GiB. ripgrep reads every ignore file whole, so
 * a `.gitignore` linked to `/dev/zero` in a workspace made it allocate about 500 MB a second
 * until the call's deadline.
 */
export const RIPGREP_MEMORY_BYTES = 2 * 1024 * 1024 * 1024;
