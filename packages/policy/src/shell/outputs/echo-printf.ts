import type { Node } from 'web-tree-sitter';
import { namedChildrenOf } from '../parse/shell-parser.js';
import { decodeEscapes } from '../words/escapes.js';
import { resolveWord } from '../words/resolve-word.js';
import { type ShellWord, literalPrefix } from '../words/shell-word.js';

/** Most outputs (one per combination of its words' possible values) worked out for one command. */
const MAX_OUTPUTS = 64;
/** Most words of a command whose output is worked out (more are left unknown: a bound on the work). */
const MAX_WORDS = 4096;
/** Longest output worked out (as long as a command line may be). */
const MAX_OUTPUT = 65_536;

/** The possible field lists of one argument node, with the values set earlier in the line put in. */
export type FieldsOf = (node: Node) => readonly (readonly ShellWord[])[];

const staticText = (text: string): ShellWord => ({ text, dynamic: false, glob: false, substitutions: [] });

/** `echo [-neE] WORD...` as bash's builtin prints it. */
function echo(fields: readonly ShellWord[]): ShellWord | undefined {
  let escapes = false;
  let newline = true;
  let index = 0;
  for (; index < fields.length; index++) {
    const field = fields[index] as ShellWord;
    if (field.dynamic || !/^-[neE]+$/.test(field.text)) break;
    for (const letter of field.text.slice(1)) {
      if (letter === 'n') newline = false;
      else escapes = letter === 'e';
    }
  }
  const words = fields.slice(index);
  const unknown = words.findIndex((word) => word.dynamic || word.glob);
  if (unknown >= 0) {
    // Known only up to the first word computed at run time: its literal start is kept.
    const before = words.slice(0, unknown).map((word) => `${word.text} `);
    const prefix = `${before.join('')}${literalPrefix(words[unknown] as ShellWord) ?? ''}`;
    if (escapes && prefix.includes('\\')) return undefined;
    return { text: prefix, dynamic: true, glob: false, substitutions: [], parts: [prefix] };
  }
  const joined = words.map((word) => word.text).join(' ');
  const decoded = escapes ? decodeEscapes(joined, false) : { text: joined, stopped: false };
  return staticText(decoded.text + (newline && !decoded.stopped ? '\n' : ''));
}

/** `printf FORMAT [ARG...]` for formats of text, escapes, `%s`, `%b` and `%%`; undefined otherwise. */
function printf(fields: readonly ShellWord[]): ShellWord | undefined {
  const words = fields[0]?.text === '--' && !fields[0].dynamic ? fields.slice(1) : fields;
  const [format, ...args] = words;
  if (!format || format.dynamic || format.text.startsWith('-')) return undefined;
  if (args.some((arg) => arg.dynamic || arg.glob)) return undefined;
  const pieces = format.text.split(/(%[%sb]|%)/);
  if (pieces.includes('%')) return undefined;
  let out = '';
  let next = 0;
  // The format is used again while arguments remain (once when it takes none).
  do {
    const start = next;
    for (const piece of pieces) {
      if (piece === '%%') out += '%';
      else if (piece === '%s') out += args[next++]?.text ?? '';
      else if (piece === '%b') {
        const decoded = decodeEscapes(args[next++]?.text ?? '', false);
        out += decoded.text;
        if (decoded.stopped) return staticText(out);
      } else {
        const decoded = decodeEscapes(piece, true);
        out += decoded.text;
        if (decoded.stopped) return staticText(out);
      }
      if (out.length > MAX_OUTPUT) return undefined;
    }
    if (next === start) break;
  } while (next < args.length);
  return staticText(out);
}

/**
 * What a command prints when it is `echo` or `printf` of words whose values are known (literal,
 * or set earlier in the line): one output per possible combination of its words' values, its
 * literal start where a word is known only at run time. Undefined for any other command, a
 * redirection, an assignment in front, or more combinations than are followed.
 */
export function staticOutputs(command: Node, fieldsOf: FieldsOf): ShellWord[] | undefined {
  if (command.type !== 'command') return undefined;
  const children = namedChildrenOf(command);
  if (children.length > MAX_WORDS) return undefined;
  const nameNode = children[0];
  if (nameNode?.type !== 'command_name') return undefined;
  const name = resolveWord(nameNode.namedChild(0) ?? nameNode);
  if (name.dynamic || (name.text !== 'echo' && name.text !== 'printf')) return undefined;
  let combinations: ShellWord[][] = [[]];
  for (let index = 1; index < children.length; index++) {
    const child = children[index] as Node;
    if (command.fieldNameForNamedChild(index) !== 'argument') return undefined;
    const readings = fieldsOf(child);
    if (readings.length === 1) {
      // One reading: appended in place (copying every combination per word would be quadratic).
      for (const combination of combinations) combination.push(...(readings[0] as readonly ShellWord[]));
      continue;
    }
    const next: ShellWord[][] = [];
    for (const fields of readings)
      for (const combination of combinations) next.push([...combination, ...fields]);
    if (next.length > MAX_OUTPUTS) return undefined;
    combinations = next;
  }
  const outputs: ShellWord[] = [];
  for (const words of combinations) {
    const output = name.text === 'echo' ? echo(words) : printf(words);
    if (!output || output.text.length > MAX_OUTPUT) return undefined;
    outputs.push(output);
  }
  return outputs;
}
