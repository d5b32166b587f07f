import { DepthBoundParser } from './depth-bound-parser.js';
import { BLOCKS, CODE, EMPHASIS, HEADINGS, HIDDEN, PARAGRAPHS, STRONG } from './html-elements.js';
import { escapeBetween, escapeCell, escapeMarkdown, linkTarget, showableUrl } from './markdown-escape.js';
import { TextWriter } from './text-writer.js';

/**
 * Characters of text written at a time: text longer than this with no tag in it (a page of
 * words, one 5 MB word) is written in pieces, between which the caller can give the event loop
 * back. A piece ends after whitespace when there is some, else inside the word.
 */
export const TEXT_PIECE_CHARS = 16 * 1024;

/**
 * Longest image alt text shown, in characters (the rest is left out). Alt texts are a few
 * words; one of megabytes would be written in one go at its tag, holding the thread.
 */
export const MAX_ALT_CHARS = 2000;

/** An HTML converter fed in slices: see {@link createHtmlConverter}. */
export interface HtmlConverter {
  /** Parses the next slice of the page. */
  write(slice: string): void;
  /** Writes a piece of the text waiting; true while a long one still waits (call again). */
  writeSome(): boolean;
  /** Ends the page: the first `keep` characters of its text, and its whole length. */
  end(): { text: string; length: number };
}

const WHITESPACE = new Set([9, 10, 12, 13, 32]);

/** Index of the last HTML whitespace character of `text` before `end`, or -1. */
function lastWhitespace(text: string, end: number): number {
  for (let index = end - 1; index >= 0; index--) if (WHITESPACE.has(text.charCodeAt(index))) return index;
  return -1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The code point (one or two UTF-16 units) at the end of `text`. */
function lastCodePoint(text: string): string {
  return text.length >= 2 && isHighSurrogate(text.charCodeAt(text.length - 2))
    ? text.slice(-2)
    : text.slice(-1);
}

interface Frame {
  readonly name: string;
  readonly hidden: boolean;
  readonly pre: boolean;
  /** In code: text is not escaped. */
  readonly code: boolean;
  /** Closing mark and what the writer had written at the opening (inline marks). */
  mark?: { opening: string; closing: string; at: number };
  /** Lists: the next item's number (undefined: bullets). */
  next?: number | undefined;
  ordered?: boolean;
  /** Tables: cells in the current row, and whether the header line is written. */
  cells?: number;
  ruled?: boolean;
  prefixed?: boolean;
  flat?: boolean;
  /** A `pre` whose first text is still to come (a line end right after `<pre>` is dropped). */
  fresh?: boolean;
}

/**
 * Converts an HTML page, given in slices, to its readable text, as markdown (headings, links,
 * lists, emphasis, code, quotes and tables marked) or as plain text. One pass over the parser's
 * events with no recursion, so time grows linearly with the page and a deep page cannot
 * overflow the stack; only the first `keep` characters are kept, the rest counted.
 */
export function createHtmlConverter(markdown: boolean, keep: number): HtmlConverter {
  const writer = new TextWriter(keep);
  const frames: Frame[] = [{ name: '#root', hidden: false, pre: false, code: false }];
  const top = (): Frame => frames[frames.length - 1] as Frame;
  const escapeText = markdown ? escapeMarkdown : undefined;
  const closest = (test: (frame: Frame) => boolean): Frame | undefined => {
    for (let index = frames.length - 1; index >= 0 && index >= frames.length - 8; index--) {
      const frame = frames[index] as Frame;
      if (test(frame)) return frame;
    }
    return undefined;
  };

  const open = (name: string, attributes: Record<string, string>): void => {
    const parent = top();
    const frame: Frame = {
      name,
      hidden: parent.hidden || HIDDEN.has(name),
      pre: parent.pre || name === 'pre',
      code: parent.code || CODE.has(name),
    };
    frames.push(frame);
    if (frame.hidden) return;
    const heading = HEADINGS.get(name);
    if (heading !== undefined) {
      writer.block(2);
      if (markdown) frame.mark = { opening: '', closing: '', at: writer.openMark(`${'#'.repeat(heading)} `) };
    } else if (PARAGRAPHS.has(name)) {
      writer.block(2);
      if (name === 'hr') {
        if (markdown) writer.content('---');
        writer.block(2);
      } else if (name === 'pre') {
        frame.fresh = true;
        if (markdown && !parent.pre) {
          writer.content('```');
          writer.block(1);
        }
      } else if (name === 'blockquote' && markdown) {
        writer.pushPrefix('> ');
        frame.prefixed = true;
      } else if (name === 'table') frame.cells = 0;
    } else if (BLOCKS.has(name)) {
      writer.block(name === 'ul' || name === 'ol' ? (parent.name === 'li' ? 1 : 2) : 1);
      if (name === 'ul' || name === 'ol' || name === 'menu') {
        frame.ordered = name === 'ol';
        const start = Number.parseInt(attributes.start ?? '1', 10);
        frame.next = Number.isFinite(start) && Math.abs(start) < 1e9 ? start : 1;
      } else if (name === 'li') {
        const list = closest((candidate) => candidate.next !== undefined);
        const marker = list?.ordered ? `${list.next ?? 1}. ` : '* ';
        if (list?.next !== undefined) list.next++;
        if (markdown) {
          writer.pushPrefix(' '.repeat(marker.length), marker);
          frame.prefixed = true;
        }
      } else if (name === 'tr') {
        const table = closest((candidate) => candidate.cells !== undefined);
        if (table) table.cells = 0;
      }
    } else if (name === 'td' || name === 'th') {
      const table = closest((candidate) => candidate.cells !== undefined);
      if (table) {
        if ((table.cells !== undefined && table.cells > 0) || markdown) writer.content('|');
        table.cells = (table.cells ?? 0) + 1;
      }
      writer.space();
      writer.flat++;
      frame.flat = true;
    } else if (name === 'br') writer.lineBreak();
    else if (name === 'img') {
      const alt = (attributes.alt ?? '').slice(0, MAX_ALT_CHARS).replace(/\s+/g, ' ').trim();
      const source = showableUrl(attributes.src);
      if (markdown && source !== undefined)
        writer.content(`![${escapeMarkdown(alt, false)}](${linkTarget(source)})`);
      else if (alt !== '') writer.text(alt, escapeText);
    } else if (markdown && !frame.pre) {
      if (name === 'a') {
        const target = showableUrl(attributes.href);
        if (target !== undefined)
          frame.mark = { opening: '[', closing: `](${linkTarget(target)})`, at: writer.openMark('[') };
      } else if (STRONG.has(name)) frame.mark = { opening: '**', closing: '**', at: writer.openMark('**') };
      else if (EMPHASIS.has(name)) frame.mark = { opening: '_', closing: '_', at: writer.openMark('_') };
      else if (CODE.has(name)) frame.mark = { opening: '`', closing: '`', at: writer.openMark('`') };
    }
  };

  const close = (): void => {
    const frame = frames.pop();
    if (!frame || frame.hidden) return;
    const { name } = frame;
    if (frame.mark) writer.closeMark(frame.mark.opening, frame.mark.closing, frame.mark.at);
    if (frame.flat) {
      writer.flat--;
      writer.space();
    }
    if (frame.prefixed) writer.popPrefix();
    if (HEADINGS.has(name) || PARAGRAPHS.has(name)) {
      if (name === 'pre' && markdown && !top().pre) {
        writer.block(1);
        writer.content('```');
      }
      writer.block(2);
    } else if (name === 'tr' && markdown) {
      const table = closest((candidate) => candidate.cells !== undefined);
      if (table?.cells) {
        writer.content('|');
        if (!table.ruled) {
          table.ruled = true;
          writer.block(1);
          writer.content(`|${' --- |'.repeat(table.cells)}`);
        }
      }
      writer.block(1);
    } else if (BLOCKS.has(name)) {
      writer.block((name === 'ul' || name === 'ol') && top().name !== 'li' ? 2 : 1);
    }
  };

  // The parser can hand text over a character at a time (a run of `<` that opens no tag):
  // consecutive pieces are joined and written once, or in pieces when long (`writeSome`).
  let pending = '';
  // The last character written when a piece ended inside a word ('' otherwise): the next
  // piece's first word goes on from it.
  let carry = '';
  // Hidden elements flattened past the depth bound and still open.
  let hiddenFlat = 0;
  /** Writes the text waiting, or with `piece` its first `TEXT_PIECE_CHARS` at most. */
  const writeText = (piece = false): void => {
    let data = pending;
    let after = '';
    const before = WHITESPACE.has(data.charCodeAt(0)) ? '' : carry;
    if (piece) {
      const space = lastWhitespace(pending, TEXT_PIECE_CHARS);
      let cut = space + 1;
      if (space === -1) {
        cut = TEXT_PIECE_CHARS;
        if (isHighSurrogate(pending.charCodeAt(cut - 1))) cut--;
      }
      data = pending.slice(0, cut);
      pending = pending.slice(cut);
      if (space === -1)
        after = isHighSurrogate(pending.charCodeAt(0)) ? pending.slice(0, 2) : pending.slice(0, 1);
      carry = space === -1 ? lastCodePoint(data) : '';
    } else {
      pending = '';
      carry = '';
    }
    const frame = top();
    if (data === '' || frame.hidden || hiddenFlat > 0) return;
    if (frame.pre) {
      const text = frame.fresh ? data.replace(/^\r?\n/, '') : data;
      frame.fresh = false;
      writer.preformatted(text);
      return;
    }
    const escapeWords = frame.code ? undefined : writer.flat > 0 && markdown ? escapeCell : escapeText;
    writer.text(
      data,
      escapeWords && (before !== '' || after !== '')
        ? escapeBetween(escapeWords, before, after)
        : escapeWords,
    );
  };
  // Elements flattened past the depth bound: hidden ones still hide their text, blocks are
  // set apart from their neighbours by a space.
  const flatBreak = (name: string): void => {
    if (top().hidden || hiddenFlat > 0) return;
    if (HEADINGS.has(name) || PARAGRAPHS.has(name) || BLOCKS.has(name) || name === 'td' || name === 'th')
      writer.space();
  };
  const parser = new DepthBoundParser({
    onopentag: (name, attributes) => {
      writeText();
      open(name, attributes);
    },
    onclosetag: () => {
      writeText();
      close();
    },
    ontext: (data) => {
      pending += data;
    },
    onflatopen: (name) => {
      writeText();
      flatBreak(name);
      if (HIDDEN.has(name)) hiddenFlat++;
    },
    onflatclose: (name) => {
      writeText();
      if (HIDDEN.has(name) && hiddenFlat > 0) hiddenFlat--;
      flatBreak(name);
    },
    onflatreset: () => {
      writeText();
      hiddenFlat = 0;
    },
  });
  return {
    write: (slice) => parser.write(slice),
    writeSome: () => {
      if (pending.length <= TEXT_PIECE_CHARS) return false;
      writeText(true);
      return pending.length > TEXT_PIECE_CHARS;
    },
    end: () => {
      parser.end();
      writeText();
      return { text: writer.result(), length: writer.length };
    },
  };
}
