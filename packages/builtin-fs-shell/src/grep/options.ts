/** How `grep` searches. */
export interface GrepEngineOptions {
  /**
   * Path of the ripgrep binary; by default `rg` is looked up on PATH. `false` always uses the
   * pure-Node search (its output is the same).
   */
  readonly ripgrep?: string | false;
}
