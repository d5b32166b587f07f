import type { Node } from 'web-tree-sitter';
import { decodeEscapes } from './escapes.js';
import type { ShellWord, Transform } from './shell-word.js';

/** Longest value a pattern operation is worked out on; longer ones make the line asked. */
const MAX_OPERAND = 256;

const known = (text: string): ShellWord => ({ text, dynamic: false, glob: false, substitutions: [] });
const UNKNOWN: ShellWord = { text: '', dynamic: true, glob: false, substitutions: [] };

/** One piece of a glob pattern: `*`, `?`, or a test for one character. */
type GlobToken = '*' | '?' | ((char: string) => boolean);

/** A glob pattern's pieces; undefined when it holds quotes or expansions or is too long. */
function globTokens(pattern: string): GlobToken[] | undefined {
  if (/["'$`]/.test(pattern) || pattern.length > MAX_OPERAND) return undefined;
  const tokens: GlobToken[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) {
      const next = pattern[++index] as string;
      tokens.push((candidate) => candidate === next);
    } else if (char === '*') tokens.push('*');
    else if (char === '?') tokens.push('?');
    else if (char === '[' && pattern.indexOf(']', index + 2) > 0) {
      const end = pattern.indexOf(']', index + 2);
      const body = pattern.slice(index + 1, end);
      const negated = /^[!^]/.test(body);
      const set = negated ? body.slice(1) : body;
      const ranges = [...set.matchAll(/(.)-(.)|(.)/gs)];
      tokens.push((candidate) => {
        const inside = ranges.some(([, from, to, single]) =>
          single !== undefined
            ? candidate === single
            : candidate >= (from as string) && candidate <= (to as string),
        );
        return inside !== negated;
      });
      index = end;
    } else tokens.push((candidate) => candidate === char);
  }
  return tokens;
}

/**
 * Where a match of the pattern that starts at `start` may end (by end index), in one pass over
 * the text: the pattern positions reachable after each character, `*` matching any run.
 */
function matchEnds(tokens: readonly GlobToken[], text: string, start: number): boolean[] {
  const ends: boolean[] = [];
  const close = (positions: Set<number>): Set<number> => {
    for (const position of positions) if (tokens[position] === '*') positions.add(position + 1);
    return positions;
  };
  let positions = close(new Set([0]));
  for (let index = start; ; index++) {
    ends[index] = positions.has(tokens.length);
    if (index === text.length || positions.size === 0) break;
    const char = text[index] as string;
    const next = new Set<number>();
    for (const position of positions) {
      const token = tokens[position];
      if (token === undefined) continue;
      if (token === '*') next.add(position);
      else if (token === '?' || token(char)) next.add(position + 1);
    }
    positions = close(next);
  }
  return ends;
}

/** Cuts the shortest or longest prefix (`#`, `##`) or suffix (`%`, `%%`) that matches. */
function cut(text: string, tokens: readonly GlobToken[], operator: string): string {
  const longest = operator.length === 2;
  if (operator.startsWith('#')) {
    const ends = matchEnds(tokens, text, 0);
    const lengths = Array.from({ length: text.length + 1 }, (_, index) => index);
    const length = (longest ? lengths.reverse() : lengths).find((at) => ends[at]);
    return length === undefined ? text : text.slice(length);
  }
  const starts = Array.from({ length: text.length + 1 }, (_, index) => index);
  const start = (longest ? starts : starts.reverse()).find((at) => matchEnds(tokens, text, at)[text.length]);
  return start === undefined ? text : text.slice(0, start);
}

/** `/pat/rep`, `//`, `/#`, `/%`: the longest match at the leftmost place it matches (every place for `//`). */
function replace(text: string, tokens: readonly GlobToken[], operator: string, replacement: string): string {
  let out = '';
  let index = 0;
  while (index <= text.length) {
    const ends = matchEnds(tokens, text, index);
    let end = -1;
    if (operator === '/%') end = ends[text.length] ? text.length : -1;
    else for (let to = text.length; to >= index && end < 0; to--) if (ends[to]) end = to;
    // An empty match replaces nothing, except at the anchored start or end.
    if (end > index || (end === index && (operator === '/#' || operator === '/%'))) {
      out += replacement;
      if (operator !== '//') return out + text.slice(end);
      index = end;
      continue;
    }
    if (operator === '/#' || index === text.length) return operator === '/#' ? text : out;
    out += text[index];
    index++;
  }
  return out;
}

function changeCase(text: string, operator: string): string {
  if (operator === ',,') return text.toLowerCase();
  if (operator === '^^') return text.toUpperCase();
  const first = text.slice(0, 1);
  return (operator === ',' ? first.toLowerCase() : first.toUpperCase()) + text.slice(1);
}

/** The operand of an operation as text, when it is static. */
function operandText(node: Node | null | undefined): string | undefined {
  if (!node) return '';
  if (/["'$`]/.test(node.text)) return undefined;
  return node.text;
}

/**
 * The variable a `${NAME OP ...}` operates on: NAME, or the element `NAME[KEY]` of an array
 * when the key is written as static text (`${A[1]%x}`, `${m[k]:-x}`; key 0 is NAME itself, as
 * the analysis keeps both arrays). An element at a computed index is not one (undefined).
 */
export function operandVariable(node: Node | null): string | undefined {
  if (node?.type === 'variable_name') return node.text;
  if (node?.type !== 'subscript') return undefined;
  const name = node.childForFieldName('name')?.text;
  const index = node.childForFieldName('index')?.text;
  if (!name || !index || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || !/^[A-Za-z0-9_.:/-]+$/.test(index))
    return undefined;
  return index === '0' ? name : `${name}[${index}]`;
}

/**
 * The array and the index node of `${NAME[INDEX] OP ...}` when the index is computed (`$i`,
 * `i++`, `$(cmd)`): read as a key of its own. Undefined for a static key or a plain name.
 */
export function computedSubscript(node: Node | null): { name: string; index: Node } | undefined {
  if (node?.type !== 'subscript' || operandVariable(node) !== undefined) return undefined;
  const name = node.childForFieldName('name')?.text;
  const index = node.childForFieldName('index');
  if (!name || !index || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || /^[@*]$/.test(index.text))
    return undefined;
  return { name, index };
}

/**
 * The operation of `${NAME OP ...}` on known values: pattern removal (`#`, `##`, `%`, `%%`),
 * replacement (`/`, `//`, `/#`, `/%`), substrings (`:OFFSET[:LENGTH]`), case changes, the
 * alternative value (`:+`, `+`), the error check (`:?`, `?`) and `@E`/`@U`/`@L`/`@u`/`@Q`.
 * Undefined for anything else (the word stays unknown).
 */
export function parameterOperation(
  node: Node,
): { variable: string; transform: Transform; index?: Node } | undefined {
  const name = node.child(1);
  const computed = computedSubscript(name);
  const variable = computed?.name ?? operandVariable(name);
  if (!name || variable === undefined) return undefined;
  const subscript = computed ? { index: computed.index } : {};
  const operator = node.child(2);
  if (!operator || operator.isNamed) return undefined;
  const operands = node.namedChildren.slice(1);
  const op = operator.text;
  const first = operandText(operands[0]);
  if (first === undefined) return undefined;
  const text =
    (transform: (value: string) => string | undefined): Transform =>
    (value) => {
      if (value.dynamic) return [UNKNOWN];
      if (value.text.length > MAX_OPERAND) return 'overflow';
      const out = transform(value.text);
      return out === undefined ? 'overflow' : [known(out)];
    };
  // The operand as written (the grammar splits `${X/\/a/b}` at the escaped slash).
  const raw = node.text.slice(2 + name.text.length + op.length, -1);
  if (['#', '##', '%', '%%'].includes(op)) {
    const tokens = globTokens(raw);
    return tokens
      ? { variable, ...subscript, transform: text((value) => cut(value, tokens, op)) }
      : undefined;
  }
  if (['/', '//', '/#', '/%'].includes(op)) {
    const slash = raw.search(/(^|[^\\])\//);
    const at = slash < 0 ? raw.length : raw[slash] === '/' ? slash : slash + 1;
    const tokens = globTokens(raw.slice(0, at));
    const replacement = raw.slice(at + 1);
    if (!tokens || /["'$`]/.test(replacement)) return undefined;
    const plain = replacement.replace(/\\(.)/g, '$1');
    return { variable, ...subscript, transform: text((value) => replace(value, tokens, op, plain)) };
  }
  if ([',,', '^^', ',', '^'].includes(op) && operands.length === 0)
    return { variable, ...subscript, transform: text((value) => changeCase(value, op)) };
  if (op === ':' && operands.every((operand) => operand?.type === 'number')) {
    const [offset, length] = operands.map((operand) => Number(operand?.text));
    return { variable, ...subscript, transform: text((value) => value.substr(offset as number, length)) };
  }
  if (op === ':?' || op === '?') return { variable, ...subscript, transform: (value) => [value] };
  if (op === ':+' || op === '+') {
    const alternative = known(first);
    // Set (and not empty, for `:+`): the alternative; otherwise nothing. Unknown: either.
    return {
      variable,
      ...subscript,
      transform: (value) =>
        value.dynamic
          ? [alternative, known('')]
          : value.text !== '' || op === '+'
            ? [alternative]
            : [known('')],
    };
  }
  const letter = node.child(3)?.text ?? '';
  if (op === '@' && /^[EULuQ]$/.test(letter)) {
    return {
      variable,
      ...subscript,
      transform: text((value) => {
        if (letter === 'E') return decodeEscapes(value, true).text;
        if (letter === 'U') return value.toUpperCase();
        if (letter === 'L') return value.toLowerCase();
        if (letter === 'u') return changeCase(value, '^');
        return `'${value.replaceAll("'", "'\\''")}'`;
      }),
    };
  }
  return undefined;
}
