/**
 * One queue per file: mutations of the same file (by any session) run one after another, so
 * two edits sent in parallel both land instead of the second overwriting the first with the
 * text it read before the first was written.
 */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier `run` with the same key has settled. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release = (): void => {};
    const mine = new Promise<void>((done) => {
      release = done;
    });
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
