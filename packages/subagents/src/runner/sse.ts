/**
 * Splits a server-sent event stream into `data` payloads. Handles `\n`, `\r\n` and `\r` line
 * ends, several `data:` lines per event, comments and chunks cut anywhere.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  /** Feeds text; returns the payloads of the events it completed. */
  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      let end = lf;
      if (cr !== -1 && (lf === -1 || cr < lf)) end = cr;
      if (end === -1) break;
      // a \r at the very end may be the first half of \r\n: wait for more
      if (end === cr && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(start, end);
      start = end + (end === cr && this.buffer[end + 1] === '\n' ? 2 : 1);
      this.line(line, out);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** Ends the stream; returns the last event when it was not closed by a blank line. */
  end(): string[] {
    const out: string[] = [];
    if (this.buffer !== '') this.line(this.buffer, out);
    this.buffer = '';
    if (this.data.length > 0) out.push(this.data.join('\n'));
    this.data = [];
    return out;
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.data.push(value);
  }
}
