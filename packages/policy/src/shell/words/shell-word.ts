import type { Node } from 'web-tree-sitter';

/**
 * A shell word resolved as far as static analysis allows. `text` is the value when the word
 * is static; `dynamic` means it depends on run time (expansions, substitutions, brace
 * expansion), so its value is unknown.
 */
export interface ShellWord {
  readonly text: string;
  readonly dynamic: boolean;
  /** Unquoted glob characters: the word may expand to file names. */
  readonly glob: boolean;
  /**
   * For a word whose only dynamic parts are unquoted `$IFS` expansions: the pieces it splits
   * into with the default IFS, the most likely reading (`rm${IFS}-rf` is `rm -rf`).
   */
  readonly ifsPieces?: readonly string[];
  /** `$(...)`, backticks and `<(...)` inside the word: commands that run to produce it. */
  readonly substitutions: readonly Node[];
  /** The word nests too deeply to be read in full: substitutions inside it may be missing. */
  readonly incomplete?: boolean;
  /**
   * For a word whose only dynamic parts are plain variables (`"$OUT"`, `/dev/${DISK}`): its
   * literal text and variables in order, so values set earlier in the line can be put in.
   */
  readonly parts?: readonly WordPart[];
  /**
   * The words this one may become with the values its variables were given earlier in the
   * line (each reading split into fields where an unquoted value holds blanks); set by the
   * analysis, absent when none of its variables was set in the line.
   */
  readonly readings?: readonly (readonly ShellWord[])[];
}

/**
 * What an operation does to one value of its variable: the values it may give, or `'overflow'`
 * when it is not worked out (a long value, a pattern with more than one `*`).
 */
export type Transform = (value: ShellWord) => readonly ShellWord[] | 'overflow';

/**
 * Literal text, or a variable expanded inside or outside double quotes, with the default value
 * `${NAME:-default}` (or `-`, `=`, `:=`) gives when it is empty or unset.
 */
export type WordPart =
  | string
  | {
      readonly variable: string;
      readonly quoted: boolean;
      readonly fallback?: ShellWord;
      /** `${NAME[KEY]}` with a key that is not a literal number: read with the array's kind. */
      readonly key?: ShellWord;
      /** `${NAME[@]}` or `${NAME[*]}`: every element of the array. */
      readonly all?: '@' | '*';
      /** `${!NAME}`: the variable NAME names. */
      readonly indirect?: boolean;
      /** `${NAME#x}`, `${NAME/a/b}`...: what the operation makes of each value. */
      readonly transform?: Transform;
    }
  /** `$(...)` or backticks: its output, when the command inside only prints known words. */
  | { readonly substitution: Node; readonly quoted: boolean };

/** The literal text a word starts with, when it is dynamic: `/dev/` for `/dev/$DISK`. */
export function literalPrefix(word: ShellWord): string | undefined {
  const first = word.parts?.[0];
  return typeof first === 'string' ? first : undefined;
}

/**
 * The word without its first `length` characters (`of=$DISK` -> `$DISK`), its readings cut
 * the same way when those characters are literal text at its start; otherwise they are dropped.
 */
export function sliceWord(word: ShellWord, length: number): ShellWord {
  const { parts, readings, ...rest } = word;
  const first = parts?.[0];
  const cut = typeof first === 'string' && first.length >= length;
  return {
    ...rest,
    text: word.text.slice(length),
    ...(cut && parts ? { parts: [first.slice(length), ...parts.slice(1)] } : {}),
    ...(cut && readings
      ? {
          readings: readings.map(([head, ...tail]) =>
            head ? [{ ...head, text: head.text.slice(length) }, ...tail] : [],
          ),
        }
      : {}),
  };
}

/** The word with another text: what it could become is no longer known. */
export function withText(word: ShellWord, text: string): ShellWord {
  const { parts: _parts, readings: _readings, ...rest } = word;
  return { ...rest, text };
}

/** A static word made from plain text (used when unwrapping `bash -c` strings and rules). */
export function staticWord(text: string): ShellWord {
  return { text, dynamic: false, glob: false, substitutions: [] };
}
