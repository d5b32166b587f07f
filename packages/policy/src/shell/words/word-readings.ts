import type { Node } from 'web-tree-sitter';
import {
  ELEMENT,
  allKey,
  decodeField,
  elementsOf,
  elementKey,
  expandElements,
  arithmeticIndex,
  arrayName,
  joinElements,
  unplacedKey,
} from '../facts/array-keys.js';
import { associativeKey, isAssociative, knownKeys } from '../facts/associative-arrays.js';
import {
  type LineFacts,
  MAX_TEXT,
  MAX_VALUES,
  RUN_TIME,
  SHELL_PROCESS,
  valueWord,
} from '../facts/line-facts.js';
import { staticOutputs } from '../outputs/echo-printf.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import { knownFileText } from '../paths/line-files.js';
import { type OutputReaders, knownOutputs } from '../outputs/known-outputs.js';
import { expandedWords } from './brace-expansion.js';
import { resolveWord } from './resolve-word.js';
import { type ShellWord, type WordPart, literalPrefix, staticWord } from './shell-word.js';

/** Deepest nesting of command substitutions whose output is worked out (`$(echo $(echo x))`). */
const MAX_SUBSTITUTION_DEPTH = 8;

/**
 * What `$(...)` or backticks give when the command inside is `echo` or `printf` of known words:
 * its output without the trailing newlines (and without NUL characters, which bash drops).
 */
function substitutionValues(facts: LineFacts, node: Node, depth: number): ShellWord[] | undefined {
  if (depth >= MAX_SUBSTITUTION_DEPTH) {
    // Deeper output is not worked out: the line is asked rather than the value left unknown.
    facts.overflow = true;
    return undefined;
  }
  const inside = node.namedChildren.filter((child) => child?.type !== 'comment');
  if (inside.length !== 1 || !inside[0]) return undefined;
  const outputs = knownOutputs(inside[0], outputReaders(facts, depth + 1));
  return outputs?.map((output) =>
    output.dynamic ? output : valueWord(output.text.replace(/\n+$/, '').replaceAll('\u0000', ''), false),
  );
}

/** `cat FILE` of a file the line wrote with known text (`echo 'ls' > f; bash -c "$(cat f)"`): that text. */
function catOfWrittenFile(facts: LineFacts, command: Node): string | undefined {
  if (facts.files.size === 0 || command.type !== 'command') return undefined;
  const [name, file, ...more] = namedChildrenOf(command);
  if (name?.type !== 'command_name' || !file || more.length > 0) return undefined;
  if (command.fieldNameForNamedChild(1) !== 'argument') return undefined;
  const program = resolveWord(name.namedChild(0) ?? name);
  if (program.dynamic || !/^(\/usr)?(\/bin\/)?cat$/.test(program.text)) return undefined;
  const word = withReadings(facts, resolveWord(file));
  if (!word.dynamic && word.text.startsWith('-')) return undefined;
  return knownFileText(facts, word);
}

/**
 * What a command node prints when it is `echo` or `printf` of words known in the line
 * ({@link staticOutputs}), with the values set earlier put in.
 */
export function commandOutputs(facts: LineFacts, command: Node, depth = 0): ShellWord[] | undefined {
  const written = catOfWrittenFile(facts, command);
  if (written !== undefined) return [staticWord(written)];
  return staticOutputs(command, (argument) => {
    const words = expandedWords(facts, argument);
    if (words.length !== 1) return [words.map((word) => (word.glob ? { ...word, dynamic: true } : word))];
    const word = words[0] as ShellWord;
    return word.glob ? [[{ ...word, dynamic: true }]] : (readingsOf(facts, word, depth) ?? [[word]]);
  });
}

/** The readers {@link knownOutputs} works with, at a nesting depth of substitutions. */
export function outputReaders(facts: LineFacts, depth = 0): OutputReaders {
  return {
    command: (command) => commandOutputs(facts, command, depth),
    values: (word) => valuesOf(facts, withReadings(facts, resolveWord(word))),
  };
}

/**
 * Every element array `name` may hold now, and the empty value of an index or key it lacks:
 * what an element read at an index known only at run time may be (unknown when the line does
 * not know the array's elements).
 */
function anyElement(facts: LineFacts, name: string, associative: boolean): ShellWord[] {
  const whole = facts.variables.get(allKey(name));
  const scalar = facts.variables.get(name);
  if (associative && !knownKeys(facts, name)) return [RUN_TIME];
  if (!whole && !scalar) return [RUN_TIME];
  // More elements than values followed: the line is asked without decoding them all.
  if (
    whole?.some(
      (value) => value.text.length > MAX_VALUES && value.text.split(ELEMENT).length > MAX_VALUES + 1,
    )
  ) {
    facts.overflow = true;
    return [RUN_TIME];
  }
  const elements = new Map<string, ShellWord>();
  for (const element of whole ? whole.flatMap(elementsOf) : (scalar ?? []))
    elements.set(`${element.dynamic ? '?' : '='}${element.text}`, element);
  return [...elements.values(), valueWord('', false)];
}

/**
 * `${NAME[KEY]}`: for each value of the key, the element of that key of an associative array
 * (nothing when its keys are known and lack it), or of that index of an indexed one (a number,
 * or a variable holding one); any element when the key or index is known only at run time.
 */
function keyedValues(facts: LineFacts, name: string, key: ShellWord, depth: number): ShellWord[] | undefined {
  const associative = isAssociative(facts, name);
  const keys = associative ? knownKeys(facts, name) : undefined;
  const out: ShellWord[] = [];
  for (const fields of readingsOf(facts, key, depth) ?? [[key]]) {
    const text = fields.map((field) => field.text).join(' ');
    if (fields.some((field) => field.dynamic)) out.push(...anyElement(facts, name, associative));
    else if (associative)
      out.push(
        ...(facts.variables.get(associativeKey(name, text)) ?? [keys ? valueWord('', false) : RUN_TIME]),
      );
    else {
      const index = arithmeticIndex(facts.variables, text);
      const element = index === undefined ? undefined : facts.variables.get(elementKey(name, index));
      out.push(...(element ?? (index === undefined ? anyElement(facts, name, false) : [RUN_TIME])));
    }
    if (out.length > MAX_VALUES) {
      facts.overflow = true;
      return undefined;
    }
  }
  return out.every((value) => value === RUN_TIME) ? undefined : out;
}

/**
 * What was assigned to the array of `variable` at an index known only at run time (`A[x]=v`),
 * added to the values an element read has (unknown ones when the line set no other).
 */
function withUnplaced(
  facts: LineFacts,
  variable: string,
  values: readonly ShellWord[] | undefined,
  all: boolean,
): ShellWord[] | undefined {
  if (!facts.variables.has(unplacedKey(arrayName(variable)))) return values?.slice();
  const unplaced = facts.variables.get(unplacedKey(arrayName(variable))) ?? [];
  const extra = all ? unplaced.map((value) => joinElements([value])) : unplaced;
  return [...(values ?? [RUN_TIME]), ...extra];
}

/** The values of a variable part: the variable's, an element's, or a whole array's. */
function partValues(
  facts: LineFacts,
  part: Exclude<WordPart, string>,
  depth: number,
): ShellWord[] | undefined {
  if ('substitution' in part) return substitutionValues(facts, part.substitution, depth);
  const keyed = part.key
    ? withUnplaced(facts, part.variable, keyedValues(facts, part.variable, part.key, depth), false)
    : undefined;
  if (part.key && !part.transform) return keyed;
  if (part.indirect) {
    const names = facts.variables.get(part.variable);
    if (!names) return undefined;
    return names.flatMap((name) =>
      name.dynamic || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text)
        ? [RUN_TIME]
        : (facts.variables.get(name.text) ?? [RUN_TIME]),
    );
  }
  if (part.transform) {
    const values = (part.key ? keyed : facts.variables.get(part.variable)) ?? [RUN_TIME];
    const out: ShellWord[] = [];
    for (const value of values) {
      const results = part.transform(value);
      if (results === 'overflow') {
        facts.overflow = true;
        return undefined;
      }
      out.push(...results);
    }
    // Known when some result is: `${X:+/dev/sda}` is /dev/sda or nothing even for an unknown X.
    const set = part.key ? keyed !== undefined : facts.variables.has(part.variable);
    return set || out.some((value) => !value.dynamic) ? out : undefined;
  }
  if (!part.all)
    return withUnplaced(facts, part.variable, facts.variables.get(part.variable)?.slice(), false);
  const whole = facts.variables.get(allKey(part.variable));
  const scalar = facts.variables.get(part.variable);
  // A variable that is not an array is an array of one element.
  const values = withUnplaced(
    facts,
    part.variable,
    whole ?? scalar?.map((value) => joinElements([value])),
    true,
  );
  return values?.map((value) =>
    value.dynamic ? value : { ...value, text: expandElements(value, part.all === '*' && part.quoted) },
  );
}

/** The text before a process id in `/proc/PID/...` or a thread id in `/proc/PID/task/TID/...`. */
const PROC = new RegExp(`^/+proc/+(?:(?:self|thread-self|${SHELL_PROCESS})/+task/+)?$`);

/**
 * `/proc/$$/cwd`, `/proc/$BASHPID/root` (also through `/proc/$$/task/$$/`): the shell's own process, whose root is everyone's and
 * whose working directory is the one the analysis follows unless the word is expanded in a
 * subshell that moved (`$$` names its parent): then {@link SHELL_PROCESS}, which the placing of
 * written paths reads as the shell's working directory (a wrapper's `-C` does not move it).
 * Undefined otherwise.
 */
function ownProcess(facts: LineFacts, part: WordPart, next: WordPart | undefined): ShellWord | undefined {
  if (typeof part === 'string' || 'substitution' in part || part.key || part.all || part.transform)
    return undefined;
  if (part.indirect || part.fallback || (part.variable !== '$$' && part.variable !== 'BASHPID'))
    return undefined;
  const entry = typeof next === 'string' ? /^\/+(cwd|root|fd|task)(?:\/|$)/.exec(next)?.[1] : undefined;
  if (!entry) return undefined;
  // `/proc/$$/task/$$/cwd`: the thread directory names the thread that follows it.
  if (entry === 'task') return valueWord('self', false);
  const process = facts.processDirectories ?? facts.directories;
  const own = part.variable === '$$' ? (facts.shellDirectories ?? process) : process;
  // The shell's descriptors are read as the ones the line opened (`exec 3</dev/sda`); in a
  // subshell `$$` names the parent, whose descriptors may differ: over-strict, never looser.
  if (entry === 'root' || entry === 'fd') return valueWord('self', false);
  return own === facts.directories ? valueWord(SHELL_PROCESS, false) : undefined;
}

/**
 * The readings of a word with the values its variables (and static substitutions) may have now,
 * each split into fields where an unquoted value holds blanks or an array gives several words;
 * undefined when none of its parts is known in the line.
 */
export function readingsOf(facts: LineFacts, word: ShellWord, depth = 0): ShellWord[][] | undefined {
  if (!word.parts) return undefined;
  interface Partial {
    text: string;
    dynamic: boolean;
    split: boolean;
    /** Holds array elements ({@link ELEMENT}): split into fields, each known or not on its own. */
    fields: boolean;
    /** Literal text before the first unknown part. */
    prefix: string;
  }
  let partials: Partial[] = [{ text: '', dynamic: false, split: false, fields: false, prefix: '' }];
  let known = false;
  for (const [index, part] of word.parts.entries()) {
    if (typeof part === 'string') {
      for (const partial of partials) {
        partial.text += part;
        if (!partial.dynamic) partial.prefix += part;
      }
      continue;
    }
    const own = ownProcess(facts, part, word.parts[index + 1]);
    const values =
      own && partials.every((partial) => PROC.test(partial.text)) ? [own] : partValues(facts, part, depth);
    const fallback = 'fallback' in part ? part.fallback : undefined;
    if (values || fallback) known = true;
    const all = 'all' in part && part.all !== undefined;
    const options = [...(values ?? [RUN_TIME]), ...(fallback ? [fallback] : [])];
    const next: Partial[] = [];
    for (const partial of partials)
      for (const value of options)
        next.push({
          text: partial.text + value.text,
          dynamic: partial.dynamic || value.dynamic,
          split: partial.split || (!part.quoted && /\s/.test(value.text)),
          fields: partial.fields || (all && !value.dynamic),
          prefix: partial.dynamic
            ? partial.prefix
            : partial.prefix + (value.dynamic ? (literalPrefix(value) ?? '') : value.text),
        });
    if (next.length > MAX_VALUES || next.some((partial) => partial.text.length > MAX_TEXT)) {
      facts.overflow = true;
      return undefined;
    }
    partials = next;
  }
  if (!known) return undefined;
  return partials.map((partial) => {
    if (partial.fields)
      return partial.text
        .split(ELEMENT)
        .flatMap((field) => (partial.split ? field.split(/\s+/).filter((piece) => piece !== '') : [field]))
        .map((field) => decodeField(field, partial.dynamic));
    return partial.split
      ? partial.text
          .split(/\s+/)
          .filter((field) => field !== '')
          .map((field) => valueWord(field, partial.dynamic))
      : [valueWord(partial.text, partial.dynamic, partial.prefix)];
  });
}

/** The word with its readings ({@link readingsOf}) attached, when it has any. */
export function withReadings(facts: LineFacts, word: ShellWord): ShellWord {
  const readings = readingsOf(facts, word);
  return readings ? { ...word, readings } : word;
}

/** The values a word assigned to a variable may have (an assignment splits nothing). */
export function valuesOf(facts: LineFacts, word: ShellWord | undefined): ShellWord[] {
  if (!word) return [valueWord('', false)];
  const readings = word.readings ?? readingsOf(facts, word);
  if (readings)
    return readings.map((fields) =>
      valueWord(
        fields.map((field) => field.text).join(' '),
        fields.some((field) => field.dynamic),
        fields.length === 1 ? literalPrefix(fields[0] as ShellWord) : undefined,
      ),
    );
  return [valueWord(word.text, word.dynamic, literalPrefix(word))];
}
