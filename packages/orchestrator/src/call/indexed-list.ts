/** A member of an {@link IndexedList}: it knows where it sits (-1 when in no list). */
export interface Indexed {
  listIndex: number;
}

/**
 * A bag whose members know their index: adding is a push, removing swaps the last member into
 * the hole. For things that come and go on every call (deadlines, calls in flight): a Set that
 * gains and loses one member per call rehashes and allocates every few calls.
 */
export class IndexedList<T extends Indexed> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  add(item: T): void {
    item.listIndex = this.items.length;
    this.items.push(item);
  }

  /** Removes `item`; false when it was not in the list. */
  delete(item: T): boolean {
    const index = item.listIndex;
    if (index < 0 || this.items[index] !== item) return false;
    const last = this.items.pop() as T;
    if (last !== item) {
      this.items[index] = last;
      last.listIndex = index;
    }
    item.listIndex = -1;
    return true;
  }

  /** A copy, safe to iterate while members come and go. */
  snapshot(): T[] {
    return [...this.items];
  }

  find(predicate: (item: T) => boolean): T | undefined {
    return this.items.find(predicate);
  }

  /** Iterates the members in place (do not add or remove meanwhile). */
  forEach(callback: (item: T) => void): void {
    for (const item of this.items) callback(item);
  }

  clear(): void {
    for (const item of this.items) item.listIndex = -1;
    this.items.length = 0;
  }
}
