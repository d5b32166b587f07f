import type { Node } from 'web-tree-sitter';
import { POSITIONAL, elementKey, literalIndex } from '../facts/array-keys.js';
import { keysName } from '../facts/associative-arrays.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import { decodeAnsiC } from './escapes.js';
import { computedSubscript, operandVariable, parameterOperation } from './parameter-operations.js';
import type { ShellWord, WordPart } from './shell-word.js';

/** Maximum nesting inside one word (`${a:-${b:-...}}`, arithmetic) that is read. */
const MAX_WORD_DEPTH = 64;

const IFS_MARK = '\u0000';

interface Accumulator {
  text: string;
  unquoted: string;
  dynamic: boolean;
  ifsOnly: boolean;
  substitutions: Node[];
  incomplete: boolean;
  parts: WordPart[];
  /** Every dynamic part so far is a plain variable. */
  plain: boolean;
}

/** `$NAME` or `${NAME}`: the name; positional and special parameters are not followed. */
const PLAIN_VARIABLE = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/;
/** `${NAME[INDEX]}` with a literal index, `${NAME[@]}` or `${NAME[*]}`. */
const ARRAY_ELEMENT = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\[([0-9]+|@|\*)\]\}$/;

/** The part a plain variable or array element expansion gives, if it is one. */
function variablePart(text: string, quoted: boolean): WordPart | undefined {
  const plain = PLAIN_VARIABLE.exec(text);
  if (plain) return { variable: (plain[1] ?? plain[2]) as string, quoted };
  // `$$`, `${$}`: the shell's process id (see `ownProcess` in word-readings.ts).
  if (/^\$(?:\$|\{\$\})$/.test(text)) return { variable: '$$', quoted };
  // `$0`: the name a shell was started with (set by `sh -c SCRIPT NAME`).
  if (/^\$(?:0|\{0\})$/.test(text)) return { variable: '$0', quoted };
  // `$1`, `${12}`, `$@`, `$*`: the positional parameters, kept as the array `@`.
  const positional = /^\$(?:([1-9])|\{([1-9][0-9]{0,2})\}|([@*])|\{([@*])\})$/.exec(text);
  if (positional) {
    const all = (positional[3] ?? positional[4]) as '@' | '*' | undefined;
    if (all) return { variable: POSITIONAL, quoted, all };
    return { variable: elementKey(POSITIONAL, Number(positional[1] ?? positional[2]) - 1), quoted };
  }
  const element = ARRAY_ELEMENT.exec(text);
  if (!element) return undefined;
  const [, name, index] = element as unknown as [string, string, string];
  if (index === '@' || index === '*') return { variable: name, quoted, all: index };
  const at = literalIndex(index);
  return at === undefined ? undefined : { variable: elementKey(name, at), quoted };
}

/**
 * `${NAME[KEY]}` with a key other than a literal number (`${m[k]}`, `${m[$k]}`, `${m["a b"]}`):
 * the key is read as a word; `${!NAME[@]}`: the keys of an associative array.
 */
function subscriptPart(node: Node, quoted: boolean, depth: number): WordPart | undefined {
  if (node.type !== 'expansion') return undefined;
  const subscript = node.namedChild(0);
  if (node.namedChildCount !== 1 || subscript?.type !== 'subscript') return undefined;
  const name = subscript.childForFieldName('name')?.text;
  const index = subscript.childForFieldName('index');
  if (!name || !index || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  if (node.childCount === 4 && node.child(1)?.text === '!')
    return index.text === '@' || index.text === '*'
      ? { variable: keysName(name), quoted, all: index.text }
      : undefined;
  if (node.childCount !== 3 || index.text === '@' || index.text === '*') return undefined;
  const key = subscriptKey(index, depth);
  return key ? { variable: name, quoted, key } : undefined;
}

/** The subscript of `${NAME[KEY]}` read as a word, undefined when it nests too deeply. */
function subscriptKey(index: Node, depth: number): ShellWord | undefined {
  const inner = newAccumulator();
  visit(index, inner, false, depth + 1);
  return inner.incomplete ? undefined : finish(inner, false);
}

function unescapeUnquoted(raw: string): string {
  return raw.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(raw: string): string {
  return raw.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

function isIfsExpansion(node: Node): boolean {
  return node.text.replace(/[{}]/g, '') === '$IFS';
}

function literal(acc: Accumulator, text: string): void {
  acc.text += text;
  const last = acc.parts.length - 1;
  if (typeof acc.parts[last] === 'string') acc.parts[last] += text;
  else acc.parts.push(text);
}

const DEFAULT_OPERATORS = new Set(['-', ':-', '=', ':=']);

/** `${NAME:-default}`: the variable and the default value, read as a word of its own. */
function defaultValue(node: Node, quoted: boolean, depth: number): WordPart | undefined {
  if (node.type !== 'expansion' || node.childCount !== 5) return undefined;
  const computed = computedSubscript(node.child(1));
  const variable = computed?.name ?? operandVariable(node.child(1));
  const key = computed ? subscriptKey(computed.index, depth) : undefined;
  if (computed && !key) return undefined;
  const operator = node.child(2);
  const value = node.child(3);
  if (variable === undefined || !operator || !value || !DEFAULT_OPERATORS.has(operator.text))
    return undefined;
  const inner = newAccumulator();
  visit(value, inner, quoted, depth + 1);
  const first = inner.parts[0];
  const fallback: ShellWord = {
    text: inner.text,
    dynamic: inner.dynamic,
    glob: false,
    substitutions: [],
    ...(inner.dynamic && typeof first === 'string' ? { parts: [first] } : {}),
  };
  return { variable, quoted, fallback, ...(key ? { key } : {}) };
}

function newAccumulator(): Accumulator {
  return {
    text: '',
    unquoted: '',
    dynamic: false,
    ifsOnly: true,
    substitutions: [],
    incomplete: false,
    parts: [],
    plain: true,
  };
}

function visit(node: Node, acc: Accumulator, quoted: boolean, depth = 0): void {
  if (depth > MAX_WORD_DEPTH) {
    acc.dynamic = true;
    acc.ifsOnly = false;
    acc.plain = false;
    acc.incomplete = true;
    return;
  }
  switch (node.type) {
    case 'word':
    case 'number': {
      const text = quoted ? node.text : unescapeUnquoted(node.text);
      literal(acc, text);
      if (!quoted) acc.unquoted += node.text;
      return;
    }
    case 'raw_string':
      literal(acc, node.text.slice(1, -1));
      return;
    case 'ansi_c_string':
      literal(acc, decodeAnsiC(node.text));
      return;
    case 'string_content':
      literal(acc, unescapeDoubleQuoted(node.text));
      return;
    case 'string':
    case 'translated_string':
      for (const child of namedChildrenOf(node)) if (child) visit(child, acc, true, depth + 1);
      return;
    case 'concatenation':
      for (const child of namedChildrenOf(node)) if (child) visit(child, acc, quoted, depth + 1);
      return;
    case 'simple_expansion':
    case 'expansion':
      acc.dynamic = true;
      if (!quoted && isIfsExpansion(node)) {
        acc.text += IFS_MARK;
        acc.plain = false;
        return;
      }
      acc.ifsOnly = false;
      {
        const variable = variablePart(node.text, quoted) ?? subscriptPart(node, quoted, depth);
        const fallback = variable ? undefined : defaultValue(node, quoted, depth);
        const operation = variable || fallback ? undefined : parameterOperation(node);
        const indirect = /^\$\{!([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(node.text)?.[1];
        if (variable) acc.parts.push(variable);
        else if (fallback) acc.parts.push(fallback);
        else if (operation) {
          const { index, ...rest } = operation;
          const key = index ? subscriptKey(index, depth) : undefined;
          if (index && !key) acc.plain = false;
          else acc.parts.push({ ...rest, quoted, ...(key ? { key } : {}) });
        } else if (indirect) acc.parts.push({ variable: indirect, quoted, indirect: true });
        else acc.plain = false;
      }
      if (!collectSubstitutions(node, acc.substitutions, depth)) acc.incomplete = true;
      return;
    case 'command_substitution':
      acc.dynamic = true;
      acc.ifsOnly = false;
      acc.parts.push({ substitution: node, quoted });
      acc.substitutions.push(node);
      return;
    case 'process_substitution':
      acc.dynamic = true;
      acc.ifsOnly = false;
      acc.plain = false;
      acc.substitutions.push(node);
      return;
    default:
      // arithmetic, brace expressions, extglobs and anything unknown: value unknown.
      acc.dynamic = true;
      acc.ifsOnly = false;
      acc.plain = false;
      if (!collectSubstitutions(node, acc.substitutions, depth)) acc.incomplete = true;
  }
}

/**
 * Finds substitutions nested anywhere below a node (for example inside `${x:-$(cmd)}`).
 * Returns false when the node nests too deeply to search in full.
 */
export function collectSubstitutions(node: Node, into: Node[], depth = 0): boolean {
  if (depth > MAX_WORD_DEPTH) return false;
  let complete = true;
  for (const child of namedChildrenOf(node)) {
    if (!child) continue;
    if (child.type === 'command_substitution' || child.type === 'process_substitution') into.push(child);
    else if (!collectSubstitutions(child, into, depth + 1)) complete = false;
  }
  return complete;
}

// `{...}` without braces or blanks inside; a brace expansion when it holds `,` or `..` (checked
// apart: one pattern with both would backtrack quadratically on a long word).
const BRACES = /\{[^{}\s]*\}/g;
const isBraceExpansion = (text: string): boolean =>
  text.includes('{') && [...text.matchAll(BRACES)].some(([match]) => /,|\.\./.test(match));
const GLOB = /(^|[^\\])[*?[]/;

/** A character of an unquoted word as brace expansion sees it (`raw` keeps its backslash), or a node kept whole. */
export type WordPiece = { readonly char: string; readonly raw: string } | Node;

function finish(acc: Accumulator, braces: boolean): ShellWord {
  const dynamic = acc.dynamic || braces;
  const hasIfs = acc.text.includes(IFS_MARK);
  return {
    text: acc.text.replaceAll(IFS_MARK, ' '),
    dynamic,
    glob: GLOB.test(acc.unquoted),
    substitutions: acc.substitutions,
    ...(acc.incomplete ? { incomplete: true } : {}),
    ...(hasIfs && acc.ifsOnly ? { ifsPieces: acc.text.split(IFS_MARK).filter((piece) => piece !== '') } : {}),
    ...(dynamic && acc.plain && !braces ? { parts: acc.parts } : {}),
  };
}

/** Resolves one argument-like node (word, string, concatenation, expansion...). */
export function resolveWord(node: Node): ShellWord {
  const acc = newAccumulator();
  visit(node, acc, false);
  return finish(acc, isBraceExpansion(acc.unquoted));
}

const NAME_CHARACTER = /^[A-Za-z0-9_]$/;

/** Resolves one word brace expansion gave: its characters and nodes in order. */
export function resolvePieces(pieces: readonly WordPiece[]): ShellWord {
  const acc = newAccumulator();
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index] as WordPiece;
    if ('char' in piece) {
      literal(acc, piece.char);
      acc.unquoted += piece.raw;
      continue;
    }
    // `$D{a,b}` is `$Da $Db`: name characters after an unbraced `$NAME` lengthen the name.
    let name =
      piece.type === 'simple_expansion' ? /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(piece.text)?.[1] : undefined;
    let next = pieces[index + 1];
    if (name && next && 'char' in next && next.raw === next.char && NAME_CHARACTER.test(next.char)) {
      while (next && 'char' in next && next.raw === next.char && NAME_CHARACTER.test(next.char)) {
        name += next.char;
        index++;
        next = pieces[index + 1];
      }
      acc.dynamic = true;
      acc.ifsOnly = false;
      acc.parts.push({ variable: name, quoted: false });
      continue;
    }
    visit(piece, acc, false, 1);
  }
  return finish(acc, false);
}
