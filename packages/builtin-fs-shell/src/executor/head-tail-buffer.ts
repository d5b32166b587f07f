/**
 * Keeps the first and last `maxBytes / 2` bytes of a stream and counts what fell out of the
 * middle, so a command that prints gigabytes costs a bounded amount of memory while both its
 * start (what ran) and its end (how it failed) survive.
 */
export class HeadTailBuffer {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private droppedBytes = 0;

  constructor(maxBytes: number) {
    const limit = Math.max(2, Math.floor(maxBytes));
    this.headLimit = Math.ceil(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  /** Bytes dropped from the middle so far. */
  get dropped(): number {
    return this.droppedBytes;
  }

  /** Total bytes seen. */
  get total(): number {
    return this.headBytes + this.tailBytes + this.droppedBytes;
  }

  push(chunk: Buffer): void {
    let data = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, data.length);
      this.head.push(data.subarray(0, take));
      this.headBytes += take;
      data = data.subarray(take);
      if (data.length === 0) return;
    }
    this.tail.push(data);
    this.tailBytes += data.length;
    if (this.tailBytes > this.tailLimit * 2 || this.tail.length > 256) this.compactTail();
  }

  private compactTail(): void {
    if (this.tailBytes <= this.tailLimit) return;
    const joined = Buffer.concat(this.tail);
    const excess = joined.length - this.tailLimit;
    this.droppedBytes += excess;
    this.tail = [joined.subarray(excess)];
    this.tailBytes = this.tailLimit;
  }

  /** The kept text, with a marker where bytes were dropped. */
  toString(): string {
    this.compactTail();
    const head = Buffer.concat(this.head).toString('utf8');
    if (this.droppedBytes === 0) return head + Buffer.concat(this.tail).toString('utf8');
    let tail = Buffer.concat(this.tail);
    // Start the tail on a character boundary (skip UTF-8 continuation bytes).
    let start = 0;
    while (start < tail.length && start < 4 && ((tail[start] as number) & 0xc0) === 0x80) start++;
    tail = tail.subarray(start);
    return `${head}\n... [${this.droppedBytes + start} bytes omitted] ...\n${tail.toString('utf8')}`;
  }
}
