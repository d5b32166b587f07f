/** Lines of stdout that are not JSON-RPC quoted in a failed start's error. */
export const START_OUTPUT_LINES = 5;
/** Characters of each quoted line (the `protocol-error` event quotes as many). */
export const START_OUTPUT_LINE_CHARS = 200;

/**
 * The last lines a stdio server wrote to its stdout that are not JSON-RPC, while it starts:
 * a careless server prints why it cannot start ("Error: config file not found") there, not
 * on stderr, and the start error quotes them as it quotes the stderr tail. Bounded: the last
 * {@link START_OUTPUT_LINES}, each cut to {@link START_OUTPUT_LINE_CHARS} characters, and a
 * count. Control characters are kept, as in the stderr tail: whoever prints the message
 * escapes them.
 */
export class StartOutput {
  private readonly lines: string[] = [];
  private seen = 0;

  /** One line that is not JSON-RPC. */
  push(line: string): void {
    this.seen++;
    const cut =
      line.length > START_OUTPUT_LINE_CHARS
        ? `${line.slice(0, START_OUTPUT_LINE_CHARS)}... (${line.length} characters)`
        : line;
    this.lines.push(cut);
    if (this.lines.length > START_OUTPUT_LINES) this.lines.shift();
  }

  /** `stdout (not JSON-RPC): ...`, one line per line kept, or `''` when none came. */
  toString(): string {
    if (this.seen === 0) return '';
    const which =
      this.seen > this.lines.length ? `; the last ${this.lines.length} of ${this.seen} lines` : '';
    return `stdout (not JSON-RPC${which}): ${this.lines.join('\n')}`;
  }
}
