import { DepthBoundParser } from './depth-bound-parser.js';
import { TextWriter } from './text-writer.js';

/** Elements whose content is not shown. */
const HIDDEN = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
  'math',
  'head',
  'title',
  'object',
  'canvas',
  'select',
  'datalist',
]);

/** Elements that start and end a block with a blank line. */
const PARAGRAPHS = new Set(['p', 'pre', 'blockquote', 'table', 'figure', 'hr', 'dl', 'details', 'fieldset']);

/** Elements that start and end on a line of their own. */
const BLOCKS = new Set([
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'address',
  'figcaption',
  'form',
  'summary',
  'dt',
  'dd',
  'center',
  'caption',
  'tr',
  'li',
  'ul',
  'ol',
  'menu',
  'body',
  'html',
  'legend',
  'hgroup',
  'search',
]);

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const STRONG = new Set(['strong', 'b']);
const EMPHASIS = new Set(['em', 'i', 'cite', 'dfn']);
const CODE = new Set(['code', 'kbd', 'samp', 'tt']);

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

/** Markdown text escaped so that it shows as written. */
function escapeMarkdown(words: string, lineStart: boolean): string {
  const escaped = words.replace(/[\\*`[\]]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&');
  if (!lineStart) return escaped;
  if (/^(?:#{1,6}|[-+=>]|[-+]{3,})$/.test(escaped)) return `\\${escaped}`;
  if (/^\d{1,9}[.)]$/.test(escaped)) return `${escaped.slice(0, -1)}\\${escaped.slice(-1)}`;
  return escaped;
}

/** Markdown text in a table cell: pipes escaped too. */
function escapeCell(words: string, lineStart: boolean): string {
  return escapeMarkdown(words, lineStart).replaceAll('|', '\\|');
}

/** A link target written inside `(...)`: spaces, parentheses and angle brackets encoded. */
function linkTarget(url: string): string {
  return url.trim().replace(/[\s()<>]/g, (character) => encodeURIComponent(character));
}

function showableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const trimmed = url.trim();
  if (trimmed === '' || /^(?:javascript|data|vbscript):/i.test(trimmed)) return undefined;
  return trimmed;
}

/**
 * The readable text of an HTML page, as markdown (headings, links, lists, emphasis, code,
 * quotes and tables marked) or as plain text. One pass over the parser's events with no
 * recursion, so time grows linearly with the page and a deep page cannot overflow the stack;
 * only the first `keep` characters are kept, the rest counted.
 */
export function convertHtml(html: string, markdown: boolean, keep: number): { text: string; length: number } {
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
    const heading = HEADINGS[name];
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
      const alt = (attributes.alt ?? '').replace(/\s+/g, ' ').trim();
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
    if (HEADINGS[name] !== undefined || PARAGRAPHS.has(name)) {
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
  // consecutive pieces are joined and written once.
  let pending = '';
  // Hidden elements flattened past the depth bound and still open.
  let hiddenFlat = 0;
  const writeText = (): void => {
    const data = pending;
    pending = '';
    const frame = top();
    if (data === '' || frame.hidden || hiddenFlat > 0) return;
    if (frame.pre) {
      const text = frame.fresh ? data.replace(/^\r?\n/, '') : data;
      frame.fresh = false;
      writer.preformatted(text);
    } else writer.text(data, frame.code ? undefined : writer.flat > 0 && markdown ? escapeCell : escapeText);
  };
  // Elements flattened past the depth bound: hidden ones still hide their text, blocks are
  // set apart from their neighbours by a space.
  const flatBreak = (name: string): void => {
    if (top().hidden || hiddenFlat > 0) return;
    if (
      HEADINGS[name] !== undefined ||
      PARAGRAPHS.has(name) ||
      BLOCKS.has(name) ||
      name === 'td' ||
      name === 'th'
    )
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
  parser.write(html);
  parser.end();
  writeText();
  return { text: writer.result(), length: writer.length };
}
