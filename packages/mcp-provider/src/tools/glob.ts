/**
 * Glob patterns for tool names, matched against the whole name. A tool name is not a path:
 * `*` and `?` take any character (`/`, `.`, a line break), where path globs (picomatch,
 * minimatch) stop `*` at `/` and never match `.` or `..`, so `admin/drop` escaped a deny
 * pattern `admin*`.
 */

// The characters a regular expression gives meaning to. In `u` mode only these may be escaped
// outside a class (`\-` there is "Invalid escape", so a pattern with a "-" threw); inside a
// class "-" must be escaped too.
const SPECIAL = /[\\^$.*+?()[\]{}|/]/g;
const CLASS_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;

function literal(text: string): string {
  return text.replace(SPECIAL, '\\$&');
}

function classMember(text: string): string {
  return text.replace(CLASS_SPECIAL, '\\$&');
}

/** Index of the `]` that closes the class opened at `start`, or -1. */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index++;
  if (pattern[index] === ']') index++; // a leading `]` is a member
  for (; index < pattern.length; index++) {
    if (pattern[index] === '\\') index++;
    else if (pattern[index] === ']') return index;
  }
  return -1;
}

/** `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` as a regular expression class. */
function characterClass(body: string): string {
  const negated = body.startsWith('!') || body.startsWith('^');
  const members = [...(negated ? body.slice(1) : body)];
  let out = '';
  for (let index = 0; index < members.length; index++) {
    const character = members[index] as string;
    if (character === '\\' && index + 1 < members.length) out += classMember(members[++index] as string);
    else if (character === '-' && index > 0 && index < members.length - 1) out += '-';
    else out += classMember(character);
  }
  return `[${negated ? '^' : ''}${out}]`;
}

/** Index of the `}` that closes the braces opened at `start` and the top-level commas, or undefined. */
function braceParts(pattern: string, start: number): { end: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let index = start; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') index++;
    else if (character === '{') depth++;
    else if (character === '}' && --depth === 0)
      return commas.length > 0 ? { end: index, commas } : undefined;
    else if (character === ',' && depth === 1) commas.push(index);
  }
  return undefined;
}

function source(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string;
    if (character === '\\' && index + 1 < pattern.length) {
      out += literal(pattern[++index] as string);
    } else if (character === '*') {
      while (pattern[index + 1] === '*') index++;
      out += '[\\s\\S]*';
    } else if (character === '?') {
      out += '[\\s\\S]';
    } else if (character === '[' && classEnd(pattern, index) > index + 1) {
      const end = classEnd(pattern, index);
      out += characterClass(pattern.slice(index + 1, end));
      index = end;
    } else if (character === '{' && braceParts(pattern, index)) {
      const { end, commas } = braceParts(pattern, index) as { end: number; commas: number[] };
      const bounds = [index, ...commas, end];
      const alternatives = bounds
        .slice(1)
        .map((bound, at) => source(pattern.slice((bounds[at] as number) + 1, bound)));
      out += `(?:${alternatives.join('|')})`;
      index = end;
    } else {
      out += literal(character);
    }
  }
  return out;
}

/**
 * A test for one glob pattern (`*`, `?`, `[abc]`, `[a-z]`, `[!abc]`, `{a,b}`, `\` escapes)
 * against a whole tool name. A class that no regular expression can hold (`[z-a]`) is taken
 * literally.
 */
export function compileGlob(pattern: string): (name: string) => boolean {
  let expression: RegExp;
  try {
    expression = new RegExp(`^(?:${source(pattern)})$`, 'u');
  } catch {
    expression = new RegExp(`^${literal(pattern)}$`, 'u');
  }
  return (name) => expression.test(name);
}
