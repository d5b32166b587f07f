/**
 * Splits a byte stream into newline-terminated lines without re-copying the buffer on every
 * chunk (a 20 MB message arrives in hundreds of chunks). Lines over `maxBytes` are an error.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Feeds a chunk; returns the complete lines it finished. Throws when a line is too long. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline >= 0) {
      const piece = chunk.subarray(start, newline);
      if (this.size + piece.length > this.maxBytes) this.tooLong();
      const line =
        this.chunks.length === 0
          ? piece.toString('utf8')
          : Buffer.concat([...this.chunks, piece], this.size + piece.length).toString('utf8');
      this.chunks = [];
      this.size = 0;
      lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.size += rest.length;
      if (this.size > this.maxBytes) this.tooLong();
      this.chunks.push(rest);
    }
    return lines;
  }

  private tooLong(): never {
    this.chunks = [];
    this.size = 0;
    throw new Error(`a message from the server exceeds ${this.maxBytes} bytes`);
  }
}

/** Keeps the last `maxBytes` of a text stream (a server's stderr) for error messages. */
export class TailBuffer {
  private text = '';

  constructor(private readonly maxBytes: number) {}

  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.maxBytes * 2) this.text = this.text.slice(-this.maxBytes);
  }

  toString(): string {
    const tail = this.text.length > this.maxBytes ? this.text.slice(-this.maxBytes) : this.text;
    return tail.trim();
  }
}
