import type { Node } from 'web-tree-sitter';
import type { LineFacts } from '../facts/line-facts.js';
import { type WordPiece, resolvePieces, resolveWord } from './resolve-word.js';
import type { ShellWord } from './shell-word.js';

/** Most words one brace expansion may give; past it the line is asked. */
export const MAX_BRACE_WORDS = 256;

/** A character that is brace syntax: unquoted and not escaped. */
const isSyntax = (piece: WordPiece | undefined, char: string): boolean =>
  piece !== undefined && 'char' in piece && piece.raw === char;

/** The characters of literal text as brace expansion sees them (backslash escapes kept in `raw`). */
export function charactersOf(text: string, escapes: boolean, into: WordPiece[]): void {
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (escapes && char === '\\' && index + 1 < text.length) {
      index++;
      const escaped = text[index] as string;
      if (escaped !== '\n') into.push({ char: escaped, raw: `\\${escaped}` });
    } else into.push({ char, raw: char });
  }
}

/** The characters of the unquoted text of a word, with quoted parts and expansions kept whole. */
function piecesOf(node: Node, into: WordPiece[]): void {
  switch (node.type) {
    case 'word':
    case 'number':
      charactersOf(node.text, true, into);
      return;
    case 'brace_expression':
      charactersOf(node.text, false, into);
      return;
    case 'concatenation':
      for (const child of node.children)
        if (child?.isNamed) piecesOf(child, into);
        else if (child) charactersOf(child.text, true, into);
      return;
    default:
      into.push(node);
  }
}

const NUMBERS = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const LETTERS = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/;

/**
 * `{1..10..3}`, `{01..10}`, `{a..e}`: the words of a sequence expression; null when the text is
 * none, undefined when it gives more than {@link MAX_BRACE_WORDS}.
 */
function sequence(inner: readonly WordPiece[]): WordPiece[][] | null | undefined {
  if (!inner.every((piece) => 'char' in piece && piece.raw === piece.char)) return null;
  const text = inner.map((piece) => (piece as { char: string }).char).join('');
  const numbers = NUMBERS.exec(text);
  const letters = numbers ? undefined : LETTERS.exec(text);
  const match = numbers ?? letters;
  if (!match) return null;
  const [, from, to, increment] = match as unknown as [string, string, string, string | undefined];
  const start = numbers ? Number(from) : from.charCodeAt(0);
  const end = numbers ? Number(to) : to.charCodeAt(0);
  // bash ignores the sign of the increment, and an increment of 0 is 1.
  const step = Math.abs(Number(increment ?? 1)) || 1;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || !Number.isSafeInteger(step))
    return undefined;
  if (Math.floor(Math.abs(end - start) / step) + 1 > MAX_BRACE_WORDS) return undefined;
  // `{01..10}`: a leading zero pads every number to the wider of the two.
  const padded = numbers !== null && (/^-?0\d/.test(from) || /^-?0\d/.test(to));
  const width = Math.max(from.length, to.length);
  const direction = end >= start ? 1 : -1;
  const words: WordPiece[][] = [];
  for (let value = start; direction > 0 ? value <= end : value >= end; value += direction * step) {
    let word = numbers ? String(value) : String.fromCharCode(value);
    if (padded) word = value < 0 ? `-${String(-value).padStart(width - 1, '0')}` : word.padStart(width, '0');
    const pieces: WordPiece[] = [];
    charactersOf(word, false, pieces);
    words.push(pieces);
  }
  return words;
}

/**
 * Deepest nesting of braces followed (`{a,{b,{c,...}}}`, or `{` left open); deeper ones make the
 * line asked: a bound on the work (each level is scanned again) and on the stack (each level is
 * one more call).
 */
export const MAX_BRACE_DEPTH = 64;

/**
 * The `}` that closes each `{` (by the index of the `{`), in one pass; undefined when braces
 * nest deeper than {@link MAX_BRACE_DEPTH}.
 */
function matchingBraces(pieces: readonly WordPiece[]): Map<number, number> | undefined {
  const closes = new Map<number, number>();
  const open: number[] = [];
  for (let index = 0; index < pieces.length; index++) {
    if (isSyntax(pieces[index], '{')) {
      if (open.push(index) > MAX_BRACE_DEPTH) return undefined;
    } else if (isSyntax(pieces[index], '}') && open.length > 0) closes.set(open.pop() as number, index);
  }
  return closes;
}

/**
 * Expands the first brace expression of a word as bash does (`a{b,c}d`, `{1..3}`, nested
 * braces), then the rest after it; an unquoted, unescaped `{` that opens none stays literal.
 * Returns `[pieces]` itself when there is none, undefined past {@link MAX_BRACE_WORDS} words
 * or {@link MAX_BRACE_DEPTH} levels.
 */
function expand(pieces: readonly WordPiece[]): (readonly WordPiece[])[] | undefined {
  const closes = matchingBraces(pieces);
  if (!closes) return undefined;
  for (let open = 0; open < pieces.length; open++) {
    if (!isSyntax(pieces[open], '{') || isSyntax(pieces[open - 1], '$')) continue;
    const close = closes.get(open) ?? -1;
    if (close < 0) continue;
    const commas: number[] = [];
    for (let index = open + 1, depth = 1; index < close; index++) {
      const piece = pieces[index];
      if (isSyntax(piece, '{')) depth++;
      else if (isSyntax(piece, '}')) depth--;
      else if (depth === 1 && isSyntax(piece, ',')) commas.push(index);
    }
    let items: (readonly WordPiece[])[] | null | undefined;
    if (commas.length > 0) {
      items = [];
      const bounds = [open, ...commas, close];
      for (let index = 0; index + 1 < bounds.length; index++) {
        const words = expand(pieces.slice((bounds[index] as number) + 1, bounds[index + 1]));
        if (!words || items.length + words.length > MAX_BRACE_WORDS) return undefined;
        items.push(...words);
      }
    } else items = sequence(pieces.slice(open + 1, close));
    if (items === undefined) return undefined;
    if (items === null) continue;
    const rest = expand(pieces.slice(close + 1));
    if (!rest || items.length * rest.length > MAX_BRACE_WORDS) return undefined;
    const before = pieces.slice(0, open);
    return items.flatMap((item) => rest.map((after) => [...before, ...item, ...after]));
  }
  return [pieces];
}

/**
 * The words a word node becomes by brace expansion, where bash expands braces (a command's
 * words, a `for` list, array elements): undefined when it holds no `{`, `overflow` past
 * {@link MAX_BRACE_WORDS} words. Quoted and escaped braces, `${...}` and braces that open no
 * expansion stay literal text; words left empty are dropped, as bash drops them.
 */
export function braceExpansion(node: Node): ShellWord[] | 'overflow' | undefined {
  if (!node.text.includes('{')) return undefined;
  const pieces: WordPiece[] = [];
  piecesOf(node, pieces);
  const words = expand(pieces);
  if (!words) return 'overflow';
  return words.filter((word) => word.length > 0).map(resolvePieces);
}

/** {@link braceExpansion} where only the line's facts are at hand: past the bound they overflow. */
export function expandedWords(facts: LineFacts, node: Node): ShellWord[] {
  const words = braceExpansion(node);
  if (words === 'overflow') facts.overflow = true;
  return typeof words === 'object' ? words : [resolveWord(node)];
}
