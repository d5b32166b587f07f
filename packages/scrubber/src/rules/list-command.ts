import { isBlank, isWhitespace } from './characters.js';

// A job spec (Kubernetes, ECS, Nomad, a CI runner's JSON) may give a command's arguments as a list
// and its name in a `command` key of the same object, before or after the list:
// `"args": ["configure", "set", ...], "command": "aws"`, or YAML's `command: [aws]` over `args:`.

/** How far the `args` key and the `command` key are looked for around a keyword. */
const LIST_REACH = 512;

/**
 * The key of an argument list, up to its `:` (JSON, YAML; `\"` in an escaped JSON string). Docker's
 * `Cmd` and ECS's `command` are the arguments when an `Entrypoint`/`entryPoint` names the command.
 */
const ARGS_KEY = /(?:^|[\s{,"'\\])(args|arguments|argv|cmd|command)\\?["']?[ \t]*:/gi;
/** A command key and the first word of its value (a string, a list, or YAML's `- name` line). */
const COMMAND_KEY =
  /(?:^|[\s{,"'\\])(?:command|entrypoint|executable|program)\\?["']?[ \t]*:[\s[]{0,40}(?:-[ \t]+)?\\?["']?([\w./-]{1,128})/gi;

/** The first item of a list (flow or block) and the blanks, brackets and quotes before it. */
const FIRST_ITEM = /[\s[]{0,64}(?:-[ \t]+)?\\?["']?([\w./-]{1,128})\\?["']?/y;

/** The regexes of this module (checked for linear time by the regex safety test). */
export const LIST_COMMAND_PATTERNS: readonly RegExp[] = [ARGS_KEY, COMMAND_KEY, FIRST_ITEM];

/** An argument list around a keyword and the command named beside it. */
export interface ListCommand {
  /** The command's name, without its directory (`/usr/local/bin/aws` is `aws`). */
  readonly name: string;
  /** Where the list's items begin (after the `args` key's `:`). */
  readonly listStart: number;
}

/** Whether `segment`, the list's text from its key to the keyword, is list items only. */
function isListText(segment: string): boolean {
  if (/[\]{}]/.test(segment)) return false; // the list or its object closed before the keyword
  const lines = segment.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).trimStart();
    if (line.length > 0 && !/^[-"'[\\]/.test(line)) return false; // a key: another field
  }
  return true;
}

/**
 * The indentation of the mapping the key at `key` belongs to: the column of its line's first
 * character after blanks and YAML list markers (`    - args:` is at column 6, like the keys under it).
 */
function mappingColumn(text: string, key: number): number {
  const lineStart = text.lastIndexOf('\n', key - 1) + 1;
  let cursor = lineStart;
  while (cursor < key && (isBlank(text.charCodeAt(cursor)) || text.charCodeAt(cursor) === 45)) cursor++;
  return cursor - lineStart;
}

/**
 * Whether the key at `second` is in the same YAML mapping as the key at `first` (before it): no line
 * between them, nor `second`'s own line, begins left of `first`'s mapping. A list item of a lower
 * column (`    - name: b` under `containers:`) is the next container; a key left of it a parent's.
 */
function sameMapping(text: string, first: number, second: number): boolean {
  const column = mappingColumn(text, first);
  for (let lineStart = text.indexOf('\n', first) + 1; lineStart > 0 && lineStart <= second; ) {
    let cursor = lineStart;
    while (cursor < second && isBlank(text.charCodeAt(cursor))) cursor++;
    const code = text.charCodeAt(cursor);
    if (cursor - lineStart < column && code !== 10 && code !== 13) return false;
    lineStart = text.indexOf('\n', cursor) + 1;
  }
  return true;
}

/** Where the key name of a match of {@link ARGS_KEY} or {@link COMMAND_KEY} begins (after its prefix). */
function keyStart(match: RegExpExecArray, offset: number): number {
  const prefix = match[0].search(/[A-Za-z]/);
  return offset + match.index + Math.max(0, prefix);
}

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | undefined {
  let found: RegExpExecArray | undefined;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) found = match;
  return found;
}

/**
 * When the word at `keyword` is an item of an argument list (`args:`/`"args":`) whose object names
 * its command in a `command`/`entrypoint` key (before the list or after it), that command.
 */
export function listCommandAround(text: string, keyword: number): ListCommand | undefined {
  const from = Math.max(0, keyword - LIST_REACH);
  const before = text.slice(from, keyword);
  const args = lastMatch(ARGS_KEY, before);
  if (args === undefined) return undefined;
  const listStart = from + args.index + args[0].length;
  if (!isListText(text.slice(listStart, keyword))) return undefined;
  // The command key before the list (no object boundary between), or after the keyword.
  // Both in one object: no brace between them, and in YAML (no braces) no line of another mapping.
  const argsStart = keyStart(args, from);
  const ahead = before.slice(0, args.index);
  const earlier = lastMatch(COMMAND_KEY, ahead);
  let name: string | undefined;
  if (
    earlier !== undefined &&
    !/[{}]/.test(ahead.slice(earlier.index + earlier[0].length)) &&
    sameMapping(text, keyStart(earlier, from), argsStart)
  )
    name = earlier[1];
  else {
    const after = text.slice(keyword, keyword + LIST_REACH);
    COMMAND_KEY.lastIndex = 0;
    const later = COMMAND_KEY.exec(after);
    if (
      later !== null &&
      !/[{}]/.test(after.slice(0, later.index)) &&
      sameMapping(text, argsStart, keyStart(later, keyword))
    )
      name = later[1];
  }
  if (name === undefined && /^c/i.test(args[1] as string)) {
    // `command: [aws, configure, ...]` over lines (`kubectl create job ... -- aws ...` prints a
    // block list): the first item is the command.
    FIRST_ITEM.lastIndex = listStart;
    const first = FIRST_ITEM.exec(text);
    if (first === null || FIRST_ITEM.lastIndex > keyword) return undefined;
    name = first[1] as string;
    return { name: name.slice(name.lastIndexOf('/') + 1), listStart: FIRST_ITEM.lastIndex };
  }
  if (name === undefined) return undefined;
  return { name: name.slice(name.lastIndexOf('/') + 1), listStart };
}

/**
 * The start of the next item of a YAML block list after `from` (the rest of the keyword's line
 * blank, then a line `- item`), or undefined.
 */
export function nextBlockItem(text: string, from: number): number | undefined {
  let cursor = from;
  while (cursor - from < 8 && isBlank(text.charCodeAt(cursor))) cursor++;
  if (text.charCodeAt(cursor) === 13) cursor++;
  if (text.charCodeAt(cursor) !== 10) return undefined;
  cursor++;
  const lineStart = cursor;
  while (cursor - lineStart < 64 && isBlank(text.charCodeAt(cursor))) cursor++;
  if (text.charCodeAt(cursor) !== 45 || !isBlank(text.charCodeAt(cursor + 1))) return undefined;
  return cursor + 1;
}

/**
 * Where the next item of a flow list spread over lines begins (a pretty-printer's JSON: `,` and a
 * line break after the keyword), or undefined.
 */
export function nextWrappedItem(text: string, from: number): number | undefined {
  let cursor = from;
  while (cursor - from < 8 && isBlank(text.charCodeAt(cursor))) cursor++;
  if (text.charCodeAt(cursor) === 44) cursor++;
  const breakAt = cursor;
  while (cursor - breakAt < 64 && isWhitespace(text.charCodeAt(cursor))) cursor++;
  return cursor > breakAt && text.slice(breakAt, cursor).includes('\n') ? cursor : undefined;
}
