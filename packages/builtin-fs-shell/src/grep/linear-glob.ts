import { RE2JS } from 're2js';

/** Most alternatives a `{1..N}` range may expand to. */
const MAX_RANGE_ITEMS = 1000;

/** Characters RE2 reads as syntax outside a class. */
const SPECIAL = /[\\.+*?()|[\]{}^$]/;

const literal = (char: string): string => (SPECIAL.test(char) ? `\\${char}` : char);

/** Thrown inside the translation for what RE2 cannot say (`!(...)`); the caller gets undefined. */
class Unsupported extends Error {}

/**
 * Translates a glob (picomatch's syntax, with `dot: true`, for walked paths that never hold
 * `.` or `..` segments) into RE2 syntax, so it matches in time linear in the path: picomatch's
 * own regular expressions backtrack (`*a*a*a*b` against a long name took a minute).
 */
class Translator {
  private at = 0;
  constructor(private readonly glob: string) {}

  /** The whole glob, or the part up to an unmatched `stop` character (inside braces/extglobs). */
  sequence(stops: string): string {
    const { glob } = this;
    let out = '';
    while (this.at < glob.length) {
      const char = glob[this.at] as string;
      if (stops.includes(char)) break;
      if (char === '\\') {
        const next = glob[this.at + 1];
        out += next === undefined ? '\\\\' : literal(next);
        this.at += 2;
      } else if (char === '*' && glob[this.at + 1] === '*') {
        out += this.globstar(stops);
      } else if ('?*+@!'.includes(char) && glob[this.at + 1] === '(') {
        out += this.extglob(char);
      } else if (char === '*') {
        out += '[^/]*';
        this.at++;
      } else if (char === '?') {
        out += '[^/]';
        this.at++;
      } else if (char === '[') {
        out += this.characterClass();
      } else if (char === '{') {
        out += this.braces();
      } else {
        out += literal(char);
        this.at++;
      }
    }
    return out;
  }

  /** `**`: any number of whole segments when it is a segment of its own, else a `*`. */
  private globstar(stops: string): string {
    const { glob } = this;
    const start = this.at;
    let end = start;
    while (glob[end] === '*') end++;
    this.at = end;
    const next = glob[end];
    const last = next === undefined || stops.includes(next);
    if (!(start === 0 || glob[start - 1] === '/') || !(last || next === '/')) return '[^/]*';
    // Trailing, it needs something after its "/": "a/**" does not match "a" (as in ripgrep).
    if (last) return '.*';
    this.at++; // the "/" after it: zero or more whole segments
    return '(?:[^/]+/)*';
  }

  private extglob(kind: string): string {
    if (kind === '!') throw new Unsupported();
    this.at += 2;
    const branches = [this.sequence('|)')];
    while (this.glob[this.at] === '|') {
      this.at++;
      branches.push(this.sequence('|)'));
    }
    if (this.glob[this.at] !== ')') throw new Unsupported();
    this.at++;
    const group = `(?:${branches.join('|')})`;
    return kind === '@' ? group : `${group}${kind}`;
  }

  private characterClass(): string {
    const { glob } = this;
    let at = this.at + 1;
    let out = '[';
    if (glob[at] === '!' || glob[at] === '^') {
      out += '^';
      at++;
    }
    let first = true;
    for (; at < glob.length; at++) {
      const char = glob[at] as string;
      if (char === ']' && !first) break;
      first = false;
      if (char === '[' && glob[at + 1] === ':') {
        const close = glob.indexOf(':]', at + 2);
        if (close === -1) throw new Unsupported();
        out += glob.slice(at, close + 2);
        at = close + 1;
      } else if (char === '\\' && at + 1 < glob.length) {
        out += `\\${glob[at + 1]}`;
        at++;
      } else {
        out += char === '-' || /[a-zA-Z0-9]/.test(char) ? char : `\\${char}`;
      }
    }
    if (at >= glob.length) {
      // No closing "]": a literal "[", as picomatch reads it.
      this.at++;
      return '\\[';
    }
    this.at = at + 1;
    // A negated class never matches "/" in a glob.
    return out.startsWith('[^') ? `${out}/]` : `${out}]`;
  }

  private braces(): string {
    const { glob } = this;
    const close = matchingBrace(glob, this.at);
    if (close === -1) {
      this.at++;
      return '\\{';
    }
    const body = glob.slice(this.at + 1, close);
    const range = /^(-?\d+)\.\.(-?\d+)$/.exec(body) ?? /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
    if (range) {
      this.at = close + 1;
      return `(?:${expandRange(range[1] as string, range[2] as string)
        .map(literalText)
        .join('|')})`;
    }
    if (!topLevelComma(body)) {
      // "{a}" is no brace expansion: the braces are literal.
      this.at++;
      return '\\{';
    }
    this.at++;
    const branches = [this.sequence(',}')];
    while (glob[this.at] === ',') {
      this.at++;
      branches.push(this.sequence(',}'));
    }
    this.at++; // "}"
    return `(?:${branches.join('|')})`;
  }
}

const literalText = (text: string): string => [...text].map(literal).join('');

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let at = open; at < glob.length; at++) {
    const char = glob[at];
    if (char === '\\') at++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return at;
  }
  return -1;
}

function topLevelComma(body: string): boolean {
  let depth = 0;
  for (let at = 0; at < body.length; at++) {
    const char = body[at];
    if (char === '\\') at++;
    else if (char === '{' || char === '(') depth++;
    else if (char === '}' || char === ')') depth--;
    else if (char === ',' && depth === 0) return true;
  }
  return false;
}

function expandRange(from: string, to: string): string[] {
  const numeric = /\d/.test(from);
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  if (Math.abs(end - start) + 1 > MAX_RANGE_ITEMS) throw new Unsupported();
  const step = start <= end ? 1 : -1;
  const items: string[] = [];
  for (let value = start; value !== end + step; value += step) {
    items.push(numeric ? String(value) : String.fromCharCode(value));
  }
  return items;
}

/**
 * A matcher for a glob that runs in time linear in the path (RE2), or undefined when the glob
 * uses what RE2 cannot express (`!(...)` negation, an unclosed extglob or POSIX class): the
 * caller then keeps picomatch. With `basename`, a glob without "/" matches a path's last part.
 */
export function linearGlob(
  glob: string,
  options: { readonly basename: boolean },
): ((path: string) => boolean) | undefined {
  let body: string;
  try {
    body = new Translator(glob).sequence('');
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  const source = options.basename && !glob.includes('/') ? `(?:.*/)?${body}` : body;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(`^(?:${source})$`, RE2JS.DOTALL);
  } catch {
    return undefined;
  }
  return (path) => compiled.testExact(path);
}
