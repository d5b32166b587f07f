import type { FileWrite, LineFacts } from '../facts/line-facts.js';
import type { ShellWord } from '../words/shell-word.js';
import { normalizePath } from './paths.js';
import { placedReadings } from './placed-readings.js';

/** Most files followed in one command line; past it the facts overflow (the line is asked). */
const MAX_FILES = 256;
/** Most writes kept per file; past it the file's text counts as unknown. */
const MAX_WRITES = 64;
/** Longest text followed for one file (as long as a command line may be). */
const MAX_FILE_TEXT = 65_536;

/** The paths a word names, placed in every directory the line may be in; none when unknown. */
export function placedPaths(facts: LineFacts, word: ShellWord): string[] {
  const placed = placedReadings(facts, word);
  const words = placed ? placed.flat() : [word];
  const paths = new Set<string>();
  for (const path of words) if (!path.dynamic && path.text !== '') paths.add(normalizePath(path.text));
  return [...paths];
}

/** Records that the line writes the file a word names, with the text written when it is known. */
export function recordFileWrite(
  facts: LineFacts,
  word: ShellWord,
  text: string | undefined,
  append: boolean,
): void {
  for (const path of placedPaths(facts, word)) {
    const writes = facts.files.get(path);
    if (!writes && facts.files.size >= MAX_FILES) {
      facts.overflow = true;
      return;
    }
    const write: FileWrite = { text, append };
    if (!writes) facts.files.set(path, [write]);
    else if (writes.length < MAX_WRITES) writes.push(write);
    else writes[writes.length - 1] = { text: undefined, append: true };
  }
}

/**
 * What a file the line wrote may hold: `known` is the text after its last write that replaced
 * it, when every write since is known; `pieces` every text written to it, each judged alone (a
 * write in a branch may not happen).
 */
export interface WrittenText {
  readonly known: string | undefined;
  readonly pieces: readonly string[];
}

/** The texts of a file written at `path` in the line, undefined when the line does not write it. */
export function writtenText(facts: LineFacts, path: string): WrittenText | undefined {
  const writes = facts.files.get(path);
  if (!writes) return undefined;
  let start = -1;
  for (let index = writes.length - 1; index >= 0; index--)
    if (!(writes[index] as FileWrite).append) {
      start = index;
      break;
    }
  const since = start < 0 ? undefined : writes.slice(start);
  const joined = since?.every((write) => write.text !== undefined)
    ? since.map((write) => write.text).join('')
    : undefined;
  const pieces = writes.flatMap((write) => (write.text === undefined ? [] : [write.text]));
  return {
    known: joined !== undefined && joined.length <= MAX_FILE_TEXT ? joined : undefined,
    pieces: pieces.filter((piece) => piece.length <= MAX_FILE_TEXT),
  };
}

/**
 * The one text a file named by a word holds when the line wrote it with known text in every
 * place it may be (`cat s.sh` after `echo ls > s.sh`); undefined otherwise.
 */
export function knownFileText(facts: LineFacts, word: ShellWord): string | undefined {
  if (facts.files.size === 0) return undefined;
  const paths = placedPaths(facts, word);
  const texts = new Set(paths.map((path) => writtenText(facts, path)?.known));
  const [only] = texts;
  return texts.size === 1 && paths.length > 0 ? only : undefined;
}
