// Characters that would break a listing line or hide what a name says: control characters (a
// line break would start a fake entry), bidirectional controls (which reverse how the rest of the
// name reads), zero-width characters, line and paragraph separators, the byte-order mark.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const HIDING = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
// The same characters, and the quote and backslash a quoted name must escape.
const HIDING_ALL = new RegExp(`${HIDING.source.slice(0, -1)}"\\\\]`, 'gu');

const NAMED: Readonly<Record<string, string>> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '"': '\\"',
  '\\': '\\\\',
};

/** True when a path holds a character that {@link showPath} has to escape. */
export function needsQuoting(path: string): boolean {
  return HIDING.test(path);
}

/**
 * How a listing shows one path component: as it is, or, when it holds a character that would
 * break the line or hide what it says, in double quotes with that character escaped
 * (`"evil\n.env"`, `"invoice\u202etxt.exe"`). The file tools refuse such names, so
 * {@link quotedNote} goes with them.
 */
export function showName(name: string): string {
  if (!needsQuoting(name)) return name;
  const escaped = name.replace(
    HIDING_ALL,
    (char) => NAMED[char] ?? `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

/** A `/`-separated path with each component shown by {@link showName}. */
export function showPath(path: string): string {
  return needsQuoting(path) ? path.split('/').map(showName).join('/') : path;
}

/** The note under a listing that quoted `count` names. */
export function quotedNote(count: number): string {
  return `(${count} name${count === 1 ? '' : 's'} hold${count === 1 ? 's' : ''} line breaks, control or invisible characters: shown quoted with escapes; the file tools cannot open ${count === 1 ? 'it' : 'them'}, rename ${count === 1 ? 'it' : 'them'} with bash)`;
}
