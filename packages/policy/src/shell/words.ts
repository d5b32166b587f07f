import type { Node } from 'web-tree-sitter';
import { decodeAnsiC } from './ansi-c.js';
import { POSITIONAL, elementKey, literalIndex } from './arrays.js';
import { type Transform, parameterOperation } from './parameter-operations.js';
import { namedChildrenOf } from './parser.js';

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
 * Literal text, or a variable expanded inside or outside double quotes, with the default value
 * `${NAME:-default}` (or `-`, `=`, `:=`) gives when it is empty or unset.
 */
export type WordPart =
  | string
  | {
      readonly variable: string;
      readonly quoted: boolean;
      readonly fallback?: ShellWord;
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
  const name = node.child(1);
  const operator = node.child(2);
  const value = node.child(3);
  if (name?.type !== 'variable_name' || !operator || !value || !DEFAULT_OPERATORS.has(operator.text))
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
  return { variable: name.text, quoted, fallback };
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
        const variable = variablePart(node.text, quoted);
        const fallback = variable ? undefined : defaultValue(node, quoted, depth);
        const operation = variable || fallback ? undefined : parameterOperation(node);
        const indirect = /^\$\{!([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(node.text)?.[1];
        if (variable) acc.parts.push(variable);
        else if (fallback) acc.parts.push(fallback);
        else if (operation) acc.parts.push({ ...operation, quoted });
        else if (indirect) acc.parts.push({ variable: indirect, quoted, indirect: true });
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

/** Resolves one argument-like node (word, string, concatenation, expansion...). */
export function resolveWord(node: Node): ShellWord {
  const acc = newAccumulator();
  visit(node, acc, false);
  let dynamic = acc.dynamic;
  if (isBraceExpansion(acc.unquoted)) dynamic = true;
  const glob = GLOB.test(acc.unquoted);
  const hasIfs = acc.text.includes(IFS_MARK);
  const word: ShellWord = {
    text: acc.text.replaceAll(IFS_MARK, ' '),
    dynamic,
    glob,
    substitutions: acc.substitutions,
    ...(acc.incomplete ? { incomplete: true } : {}),
    ...(hasIfs && acc.ifsOnly ? { ifsPieces: acc.text.split(IFS_MARK).filter((piece) => piece !== '') } : {}),
    ...(dynamic && acc.plain && !isBraceExpansion(acc.unquoted) ? { parts: acc.parts } : {}),
  };
  return word;
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
