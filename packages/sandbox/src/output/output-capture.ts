import { StringDecoder } from 'node:string_decoder';

/**
 * The output of one stream of a command, capped: the first and last halves of `maxBytes` are
 * kept and what falls out of the middle is counted, so a command that prints gigabytes costs a
 * bounded amount of memory while what it ran (the head) and how it ended (the tail) survive.
 */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private droppedBytes = 0;
  private readonly decoder = new StringDecoder('utf8');

  constructor(maxBytes: number) {
    const limit = Math.max(2, Math.floor(maxBytes));
    this.headLimit = Math.ceil(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  /** Bytes dropped from the middle so far. */
  get dropped(): number {
    return this.droppedBytes;
  }

  /**
   * Adds a chunk; with `decode`, returns it decoded (complete characters only) for a streaming
   * listener, else an empty string (decoding output nobody streams costs as much as the copy).
   */
  push(chunk: Buffer, decode = false): string {
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      this.tail.push(rest);
      this.tailBytes += rest.length;
      if (this.tailBytes > this.tailLimit * 2 || this.tail.length > 512) this.trimTail();
    }
    return decode ? this.decoder.write(chunk) : '';
  }

  private trimTail(): void {
    if (this.tailBytes <= this.tailLimit) return;
    const joined = Buffer.concat(this.tail);
    const excess = joined.length - this.tailLimit;
    this.droppedBytes += excess;
    this.tail = [joined.subarray(excess)];
    this.tailBytes = this.tailLimit;
  }

  /** The kept text, with a marker line where bytes were dropped. */
  text(): string {
    this.trimTail();
    const head = Buffer.concat(this.head).toString('utf8');
    let tail = Buffer.concat(this.tail);
    if (this.droppedBytes === 0) return head + tail.toString('utf8');
    // Start the tail on a character boundary: skip UTF-8 continuation bytes.
    let skip = 0;
    while (skip < tail.length && skip < 4 && ((tail[skip] as number) & 0xc0) === 0x80) skip++;
    tail = tail.subarray(skip);
    return `${head}\n... [${this.droppedBytes + skip} bytes omitted] ...\n${tail.toString('utf8')}`;
  }
}
