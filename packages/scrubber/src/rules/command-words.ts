import { isQuote, isWhitespace } from './characters.js';

// Which command an option belongs to: the nearest known command name before it in the same
// command (`docker exec db mysql -uroot -pX` is mysql's `-p`, `docker run -p 80:80` is not).

/** How far back from an option the command name may be (a stream keeps 256 characters of context). */
export const COMMAND_LOOKBACK = 240;

/** A command the rule knows, by the names it is run as. */
export interface KnownCommand {
  readonly names: readonly string[];
  /** The name is a subcommand: the word before it must be one of these (`docker login`). */
  readonly after?: readonly string[];
}

/** A character that separates words: blanks, quotes, argument-list punctuation, `)`. */
function isWordBreak(code: number): boolean {
  return isWhitespace(code) || isQuote(code) || code === 44 || code === 91 || code === 93 || code === 41;
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
  let wordEnd = index;
  let pending: FoundCommand<Command> | undefined; // a subcommand whose parent word comes next
  for (let cursor = index - 1; cursor >= from - 1; cursor--) {
    const code = cursor >= from ? text.charCodeAt(cursor) : -1;
    const atLimit = cursor < from;
    if (!atLimit && !isWordBreak(code) && !endsCommand(code)) continue;
    // A word cut by the look-back limit is not a name.
    const cutWord = atLimit && from > 0 && !isWordBreak(text.charCodeAt(from - 1));
    if (wordEnd > cursor + 1 && !cutWord) {
      const names = namesOf(text.slice(cursor + 1, wordEnd));
      if (pending?.command.after?.some((parent) => names.includes(parent))) return pending;
      pending = undefined;
      for (const name of names) {
        const command = byName.get(name);
        if (command === undefined) continue;
        if (command.after === undefined) return { command, nameEnd: wordEnd };
        pending = { command, nameEnd: wordEnd };
      }
    }
    if (atLimit || endsCommand(code)) return undefined;
    if (code === 10) {
      // A line break ends the command unless a backslash continues it.
      let previous = cursor - 1;
      if (text.charCodeAt(previous) === 13) previous--;
      if (text.charCodeAt(previous) !== 92) return undefined;
      cursor = previous;
    }
    wordEnd = cursor;
  }
  return undefined;
}
