/** A prefix written at the start of each line inside a container (a quote, a list item). */
interface LinePrefix {
  /** Written on the first line of the container, then `rest` (a list marker). */
  first: string | undefined;
  readonly rest: string;
}

const COLLAPSIBLE = /[\t\n\f\r ]+/g;

/**
 * Builds the converted text of a page piece by piece, in time linear in what it is given: runs
 * of whitespace collapse to one space, blocks are separated by at most one blank line, each
 * line starts with the prefixes of the containers it is in, and only the first `keep`
 * characters are stored (the rest is counted), so memory does not grow with the page.
 */
export class TextWriter {
  private readonly stored: string[] = [];
  private storedLength = 0;
  /** Characters written in all, stored or not. */
  length = 0;
  private readonly prefixes: LinePrefix[] = [];
  private pendingNewlines = 0;
  private pendingSpace = false;
  private pendingMarks = '';
  private atLineStart = true;
  /** When set, block breaks become spaces (inside a table cell). */
  flat = 0;

  constructor(private readonly keep: number) {}

  private put(text: string): void {
    this.length += text.length;
    if (this.storedLength >= this.keep) return;
    const part =
      text.length > this.keep - this.storedLength ? text.slice(0, this.keep - this.storedLength) : text;
    this.stored.push(part);
    this.storedLength += part.length;
  }

  private linePrefix(blank: boolean): string {
    let prefix = '';
    for (const entry of this.prefixes) {
      if (blank) prefix += entry.rest;
      else {
        prefix += entry.first ?? entry.rest;
        entry.first = undefined;
      }
    }
    return blank ? prefix.trimEnd() : prefix;
  }

  /** Starts the next content on a new line, after `newlines` line ends (2: a blank line). */
  block(newlines: 1 | 2): void {
    if (this.flat > 0) {
      this.space();
      return;
    }
    this.pendingSpace = false;
    if (this.length > 0 && !this.atLineStart) this.pendingNewlines = Math.max(this.pendingNewlines, newlines);
  }

  /** A line break (`<br>`): always a new line, even right after another. */
  lineBreak(): void {
    if (this.flat > 0) {
      this.space();
      return;
    }
    this.pendingSpace = false;
    if (this.length > 0) this.pendingNewlines++;
  }

  /** A space before the next content, unless it starts a line. */
  space(): void {
    this.pendingSpace = true;
  }

  private flush(): void {
    if (this.pendingNewlines > 0) {
      for (let line = 1; line < this.pendingNewlines; line++) this.put(`\n${this.linePrefix(true)}`);
      this.put('\n');
      this.pendingNewlines = 0;
      this.pendingSpace = false;
      this.atLineStart = true;
    }
    if (this.atLineStart) this.put(this.linePrefix(false));
    else if (this.pendingSpace) this.put(' ');
    this.pendingSpace = false;
    this.atLineStart = false;
    if (this.pendingMarks !== '') {
      this.put(this.pendingMarks);
      this.pendingMarks = '';
    }
  }

  /**
   * Text as a browser shows it: whitespace collapsed. `escapeWords` turns the words into what
   * markdown shows as they are; it gets whether they start a line.
   */
  text(data: string, escapeWords?: (words: string, lineStart: boolean) => string): void {
    const words = data.split(COLLAPSIBLE);
    for (let index = 0; index < words.length; index++) {
      if (index > 0) this.space();
      const word = words[index] as string;
      if (word === '') continue;
      this.content(escapeWords ? escapeWords(word, this.atLineStart || this.pendingNewlines > 0) : word);
    }
  }

  /** Content written as is (a mark, a link target, one line of preformatted text). */
  content(data: string): void {
    if (data === '') return;
    this.flush();
    this.put(data);
  }

  /** Preformatted text: whitespace and line ends kept, each line under the container prefixes. */
  preformatted(data: string): void {
    const lines = data.split('\n');
    for (let index = 0; index < lines.length; index++) {
      if (index > 0) {
        if (this.flat > 0) this.space();
        else this.pendingNewlines++;
      }
      const line = lines[index] as string;
      if (line !== '') this.content(line.replace(/\r$/, ''));
    }
  }

  /** A mark written with the next content (`**`, `[`): dropped if none comes before {@link closeMark}. */
  openMark(mark: string): number {
    this.pendingMarks += mark;
    return this.length;
  }

  /**
   * Closes a mark opened when the writer had written `openedAt` characters: writes `mark`
   * after the content, or nothing when the element was empty (its opening mark is dropped).
   */
  closeMark(opening: string, mark: string, openedAt: number): void {
    if (this.length === openedAt && this.pendingMarks.endsWith(opening)) {
      this.pendingMarks = this.pendingMarks.slice(0, -opening.length);
      return;
    }
    if (mark === '') return;
    const space = this.pendingSpace;
    this.pendingSpace = false;
    const newlines = this.pendingNewlines;
    this.pendingNewlines = 0;
    this.put(mark);
    this.pendingSpace = space;
    this.pendingNewlines = newlines;
  }

  /** Enters a container whose lines start with `rest`, its first line with `first`. */
  pushPrefix(rest: string, first?: string): void {
    // Line ends asked for before the container belong outside it.
    if (this.pendingNewlines > 0 && this.flat === 0) {
      for (let line = 1; line < this.pendingNewlines; line++) this.put(`\n${this.linePrefix(true)}`);
      this.put('\n');
      this.pendingNewlines = 0;
      this.pendingSpace = false;
      this.atLineStart = true;
    }
    this.prefixes.push({ first, rest });
  }

  popPrefix(): void {
    this.prefixes.pop();
  }

  /** The stored text (the first `keep` characters of all that was written). */
  result(): string {
    return this.stored.join('').trimEnd();
  }
}
