// Which command an option belongs to: the nearest known command name before it in the same
// command (`docker exec db mysql -uroot -pX` is mysql's `-p`, `docker run -p 80:80` is not).

import { registerMemo } from './memos.js';

/** How far back from an option the command name may be (a stream keeps 256 characters of context). */
export const COMMAND_LOOKBACK = 240;

/** A command the rule knows, by the names it is run as. */
export interface KnownCommand {
  readonly names: readonly string[];
  /** The name is a subcommand: the word before it must be one of these (`docker login`). */
  readonly after?: readonly string[];
}

/**
 * A character that separates words: blanks, line breaks, NULs (`/proc/<pid>/cmdline`), quotes,
 * argument-list punctuation, `)`.
 * Written out here (not through characters.ts): it runs for every character looked back over.
 */
function isWordBreak(code: number): boolean {
  return (
    code === 0 ||
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 44 ||
    code === 91 ||
    code === 93 ||
    code === 41
  );
}

/** Characters that begin or end the command the option is in: `|`, `;`, `&`, `(` (a subshell, `$(...)`). */
function endsCommand(code: number): boolean {
  return code === 124 || code === 59 || code === 38 || code === 40;
}

/**
 * The names a word may be run as: its last path segment without `.exe`, and, when that segment
 * follows a backslash escape such as `\n` in a JSON string, the segment without the escape letter.
 */
function namesOf(word: string): string[] {
  const cut = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  let name = word.slice(cut + 1);
  if (name.endsWith('.exe')) name = name.slice(0, -4);
  const escaped = cut >= 0 && word.charCodeAt(cut) === 92 && /^[ntr]/.test(name) ? name.slice(1) : undefined;
  return escaped === undefined ? [name] : [name, escaped];
}

/** The longest command name the look-back compares, with `.exe` (longer segments are skipped unread). */
const MAX_NAME = 20;

/**
 * Whether the word from `start` to `end` may be run as a command: not an option, and its last
 * path segment short enough to be a name. Cheap, so that the option-dense text an attacker can
 * send (` -p` repeated) costs a character loop, not a lookup per word.
 */
function mayBeName(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(start) === 45) return false;
  for (let cursor = end - 1; cursor >= start; cursor--) {
    if (end - cursor > MAX_NAME) return false;
    const code = text.charCodeAt(cursor);
    if (code === 47 || code === 92) return true;
  }
  return true;
}

/** A known command found before an option, and where its name ends. */
export interface FoundCommand<Command> {
  readonly command: Command;
  readonly nameEnd: number;
}

/**
 * The known command whose name is the nearest word before `index` in the same command: line
 * breaks only after a continuation backslash, no `|`, `;`, `&` or `(` between. Undefined when there
 * is none within {@link COMMAND_LOOKBACK} characters.
 */
export function commandBefore<Command extends KnownCommand>(
  text: string,
  index: number,
  byName: ReadonlyMap<string, Command>,
): FoundCommand<Command> | undefined {
  const from = Math.max(0, index - COMMAND_LOOKBACK);
  // Options are looked up in increasing order in one text: the look-back before the previous
  // option (whose dash follows a word break and is no name) was already done.
  const earlier = last?.text === text && last.byName === byName && last.index < index ? last : undefined;
  let wordEnd = index;
  let pending: FoundCommand<Command> | undefined; // a subcommand whose parent word comes next
  for (let cursor = index - 1; cursor >= from - 1; cursor--) {
    if (earlier !== undefined && cursor === earlier.index - 1) {
      const found = earlier.reach >= from ? (earlier.found as FoundCommand<Command> | undefined) : undefined;
      return remember(text, index, byName, found, found === undefined ? 0 : earlier.reach);
    }
    const code = cursor >= from ? text.charCodeAt(cursor) : -1;
    const atLimit = cursor < from;
    if (!atLimit && !isWordBreak(code) && !endsCommand(code)) continue;
    // A word cut by the look-back limit is not a name.
    const cutWord = atLimit && from > 0 && !isWordBreak(text.charCodeAt(from - 1));
    if (wordEnd > cursor + 1 && !cutWord && !mayBeName(text, cursor + 1, wordEnd)) pending = undefined;
    else if (wordEnd > cursor + 1 && !cutWord) {
      const names = namesOf(text.slice(cursor + 1, wordEnd));
      if (pending?.command.after?.some((parent) => names.includes(parent)))
        return remember(text, index, byName, pending, cursor + 1);
      pending = undefined;
      for (const name of names) {
        const command = byName.get(name);
        if (command === undefined) continue;
        if (command.after === undefined)
          return remember(text, index, byName, { command, nameEnd: wordEnd }, cursor + 1);
        pending = { command, nameEnd: wordEnd };
      }
    }
    if (atLimit || endsCommand(code)) return remember(text, index, byName, undefined, 0);
    if (code === 10) {
      // A line break ends the command unless a backslash continues it.
      let previous = cursor - 1;
      if (text.charCodeAt(previous) === 13) previous--;
      if (text.charCodeAt(previous) !== 92) return remember(text, index, byName, undefined, 0);
      cursor = previous;
    }
    wordEnd = cursor;
  }
  return remember(text, index, byName, undefined, 0);
}

/** The last look-back: its text, option position, result, and where the words it rests on begin. */
let last:
  | {
      readonly text: string;
      readonly index: number;
      readonly byName: ReadonlyMap<string, KnownCommand>;
      readonly found: FoundCommand<KnownCommand> | undefined;
      readonly reach: number;
    }
  | undefined;
registerMemo(() => {
  last = undefined;
});

function remember<Command extends KnownCommand>(
  text: string,
  index: number,
  byName: ReadonlyMap<string, Command>,
  found: FoundCommand<Command> | undefined,
  reach: number,
): FoundCommand<Command> | undefined {
  last = { text, index, byName, found, reach };
  return found;
}
