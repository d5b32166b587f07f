// Just enough of YAML and JSON syntax to find a manifest's objects and members in text: lines
// and their key columns (YAML), strings, containers and members (JSON).

/** The deepest column a YAML key is taken at. */
export const MAX_COLUMN = 64;

/** One line: where it starts and ends, its indentation, and the column of its key. */
export interface Line {
  readonly start: number;
  readonly end: number;
  /** Column of the first character after the indentation and a list item's `- `. */
  readonly key: number;
  /** Whether the line opens a list item (`- key: value`). */
  readonly item: boolean;
  /** Blank or a comment: neither ends nor belongs to a mapping. */
  readonly empty: boolean;
}

export function lineAt(text: string, start: number): Line {
  const newline = text.indexOf('\n', start);
  const end = newline === -1 ? text.length : newline;
  let cursor = start;
  while (text.charCodeAt(cursor) === 32) cursor++;
  let item = false;
  while (
    text.charCodeAt(cursor) === 45 &&
    text.charCodeAt(cursor + 1) === 32 &&
    cursor - start < MAX_COLUMN
  ) {
    item = true;
    cursor += 2;
    while (text.charCodeAt(cursor) === 32) cursor++;
  }
  const first = text.charCodeAt(cursor);
  const empty = cursor >= end || first === 13 || first === 35;
  return { start, end, key: cursor - start, item, empty };
}

/** Whether the line is a key of the mapping whose keys sit at `column`, and not past its end. */
export function inMapping(line: Line, column: number, text: string): boolean {
  if (line.empty) return true;
  if (line.key > column) return !line.item || line.key - 2 >= column;
  return line.key === column && !line.item && !text.startsWith('---', line.start);
}

/** Whether the quote at `index` is escaped (an odd number of backslashes before it). */
export function escaped(text: string, index: number): boolean {
  let count = 0;
  while (text.charCodeAt(index - 1 - count) === 92) count++;
  return count % 2 === 1;
}

/** The closing quote of the string opened at `open`, or -1. */
export function stringEnd(text: string, open: number, limit: number): number {
  let close = text.indexOf('"', open + 1);
  while (close !== -1 && close < limit && escaped(text, close)) close = text.indexOf('"', close + 1);
  return close === -1 || close >= limit ? -1 : close;
}

/** Past the value starting at `start` (skipping blanks): a string, or a container with what it holds. */
export function skipValue(text: string, start: number, limit: number): number {
  let cursor = start;
  let depth = 0;
  while (cursor < limit) {
    const code = text.charCodeAt(cursor);
    if (code === 34) {
      const close = stringEnd(text, cursor, limit);
      if (close === -1) return limit;
      cursor = close + 1;
      if (depth === 0) return cursor;
      continue;
    }
    if (code === 123 || code === 91) depth++;
    else if (code === 125 || code === 93) {
      if (depth === 0) return cursor;
      depth--;
      if (depth === 0) return cursor + 1;
    } else if (code === 44 && depth === 0) return cursor;
    cursor++;
  }
  return limit;
}

export function skipBlanks(text: string, cursor: number): number {
  let at = cursor;
  while (at < text.length && text.charCodeAt(at) <= 32) at++;
  return at;
}

/** The members of the object whose `{` is at `open`: key and value start, until its `}`; `progress.reach` says how far it read. */
export function* members(
  text: string,
  open: number,
  limit: number,
  progress: { reach: number },
): Generator<[string, number]> {
  let cursor = skipBlanks(text, open + 1);
  while (cursor < limit && text.charCodeAt(cursor) === 34) {
    const keyEnd = stringEnd(text, cursor, limit);
    if (keyEnd === -1) return;
    const colon = skipBlanks(text, keyEnd + 1);
    if (text.charCodeAt(colon) !== 58) return;
    const value = skipBlanks(text, colon + 1);
    yield [text.slice(cursor + 1, keyEnd), value];
    cursor = skipBlanks(text, skipValue(text, value, limit));
    progress.reach = Math.max(progress.reach, cursor);
    if (text.charCodeAt(cursor) !== 44) return;
    cursor = skipBlanks(text, cursor + 1);
  }
}

/** An earlier member's key and the `{` of its object (-1: none), for {@link objectStart} to stop at. */
export interface Waypoint {
  readonly at: number;
  readonly open: number;
}

/**
 * The `{` of the object the member at `at` is in (`at` outside any string), walking back over
 * strings and closed containers at most `bound` characters; -1 when there is none. Reaching the
 * key of `waypoint` (an earlier member whose object is known), it goes on from that object's `{`
 * instead of reading that stretch again: a text of thousands of members is read about once.
 */
export function objectStart(text: string, at: number, bound: number, waypoint?: Waypoint): number {
  let open = at - 1;
  let depth = 0;
  for (; open >= 0 && at - open < bound; open--) {
    const code = text.charCodeAt(open);
    if (code === 34 && !escaped(text, open)) {
      open--;
      while (open >= 0 && (text.charCodeAt(open) !== 34 || escaped(text, open)) && at - open < bound) open--;
      // Past the waypoint's key without landing on it (quotes that do not pair up: not JSON) counts too.
      if (waypoint !== undefined && open <= waypoint.at) {
        if (depth === 0 || waypoint.open === -1) return waypoint.open;
        open = waypoint.open; // its `{` closes one of the levels passed
        depth--;
        waypoint = undefined;
      }
    } else if (code === 125 || code === 93) depth++;
    else if (code === 123 || code === 91) {
      if (depth === 0) break;
      depth--;
    }
  }
  return open >= 0 && at - open < bound && text.charCodeAt(open) === 123 ? open : -1;
}

/** Whether the object holding the member whose key string opens at `key` is still open at the end of `text`. */
export function objectOpenAtEnd(text: string, key: number): boolean {
  let cursor = stringEnd(text, key, text.length);
  if (cursor === -1) return true;
  let depth = 0;
  for (cursor++; cursor < text.length; cursor++) {
    const code = text.charCodeAt(cursor);
    if (code === 34) {
      cursor = stringEnd(text, cursor, text.length);
      if (cursor === -1) return true;
    } else if (code === 123 || code === 91) depth++;
    else if (code === 125 || code === 93) {
      if (depth === 0) return false;
      depth--;
    }
  }
  return true;
}
