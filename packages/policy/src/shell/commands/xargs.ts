import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { processSubstitutionOutputs } from '../outputs/known-outputs.js';
import { type Scope, knownInput } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';
import { outputReaders } from '../words/word-readings.js';
import { markRunTimeName } from './run-time-names.js';

/** Most commands one xargs with a known input is followed into; more make the line asked. */
export const MAX_INVOCATIONS = 64;
/** Most input items followed. */
const MAX_ITEMS = 1024;

/** How xargs reads its input and builds commands, from its options. */
interface XargsOptions {
  /** Items end at this character only (`-0`: NUL, `-d X`); otherwise blanks and newlines, with quotes. */
  delimiter?: string;
  /** `-I R`: one command per input line, R replaced by it. */
  replace?: string;
  /** `-n N`: at most N items per command. */
  maxArgs?: number;
  /** `-L N`: the items of N lines per command. */
  maxLines?: number;
  /** `-E S`: input stops at the item S. */
  eof?: string;
}

const SHORT_WITH_VALUE = 'adEILnPs';
const LONG =
  /^--(arg-file|delimiter|eof|replace|max-args|max-lines|max-procs|max-chars|null|no-run-if-empty|verbose|interactive|exit|open-tty|process-slot-var)(=.*)?$/;

function setOption(options: XargsOptions, letter: string, value: string | undefined): boolean {
  if (letter === 'a') return false; // the items come from a file
  if (letter === '0') options.delimiter = '\u0000';
  else if (letter === 'd') {
    const delimiter = value === '\\n' ? '\n' : value === '\\t' ? '\t' : value;
    if (delimiter === undefined || [...delimiter].length !== 1) return false;
    options.delimiter = delimiter;
  } else if (letter === 'I' || letter === 'i') options.replace = value || '{}';
  else if (letter === 'E' || letter === 'e') options.eof = value;
  else if (letter === 'n' || letter === 'L' || letter === 'l') {
    const count = Number(value ?? (letter === 'l' ? '1' : ''));
    if (!Number.isInteger(count) || count < 1) return false;
    if (letter === 'n') options.maxArgs = count;
    else options.maxLines = count;
  }
  return true;
}

const LONG_LETTERS: Readonly<Record<string, string>> = {
  'arg-file': 'a',
  delimiter: 'd',
  eof: 'e',
  replace: 'i',
  'max-args': 'n',
  'max-lines': 'l',
  null: '0',
};

/** Reads xargs' options (the words before its command); undefined when the input is not standard input or not understood. */
function readOptions(words: readonly ShellWord[]): XargsOptions | undefined {
  const options: XargsOptions = {};
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as ShellWord;
    if (word.dynamic) return undefined;
    const text = word.text;
    if (text === '--') continue;
    const long = LONG.exec(text);
    if (long) {
      const name = long[1] as string;
      const letter = Object.hasOwn(LONG_LETTERS, name) ? LONG_LETTERS[name] : undefined;
      const attached = long[2]?.slice(1);
      const separate =
        attached === undefined &&
        [
          'arg-file',
          'delimiter',
          'max-args',
          'max-lines',
          'max-procs',
          'max-chars',
          'process-slot-var',
        ].includes(name);
      const value = separate ? words[++index]?.text : attached;
      if (letter && !setOption(options, letter, value ?? (letter === 'i' ? '{}' : value))) return undefined;
      continue;
    }
    if (!/^-[^-]/.test(text)) return undefined;
    for (let at = 1; at < text.length; at++) {
      const letter = text[at] as string;
      const rest = text.slice(at + 1);
      if (SHORT_WITH_VALUE.includes(letter)) {
        if (!setOption(options, letter, rest !== '' ? rest : words[++index]?.text)) return undefined;
        break;
      }
      // `-i`, `-e`, `-l` take a value only when it is attached.
      if ('iel'.includes(letter)) {
        if (!setOption(options, letter, rest !== '' ? rest : undefined)) return undefined;
        break;
      }
      if (!'0rtpxo'.includes(letter)) return undefined;
      setOption(options, letter, undefined);
    }
  }
  return options;
}

/** Splits one line or input into items as xargs does without `-0`/`-d`: blanks separate, quotes and backslashes group. */
function quotedItems(text: string, blanksSplit: boolean): string[] | undefined {
  const items: string[] = [];
  let current = '';
  let started = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, index + 1);
      if (end < 0 || text.slice(index + 1, end).includes('\n')) return undefined; // xargs stops: unmatched quote
      current += text.slice(index + 1, end);
      started = true;
      index = end;
    } else if (char === '\\' && index + 1 < text.length) {
      current += text[++index];
      started = true;
    } else if (/\s/.test(char) && (blanksSplit || char === '\n' || !started)) {
      if (started) items.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) items.push(current);
  return items;
}

/** The argument groups of the commands xargs runs for one known input text. */
function groups(text: string, options: XargsOptions): string[][] | undefined {
  const perLine = options.replace !== undefined || options.maxLines !== undefined;
  let lines: string[][];
  if (options.delimiter !== undefined) {
    const items = text.split(options.delimiter);
    if (items[items.length - 1] === '') items.pop();
    lines = items.map((item) => [item]);
  } else if (perLine) {
    lines = [];
    for (const line of text.split('\n')) {
      const items = quotedItems(line, options.replace === undefined);
      if (!items) return undefined;
      if (items.length > 0) lines.push(options.replace === undefined ? items : [items.join(' ')]);
    }
  } else {
    const items = quotedItems(text, true);
    if (!items) return undefined;
    lines = items.map((item) => [item]);
  }
  if (options.eof !== undefined) {
    const stop = lines.findIndex((line) => line[0] === options.eof);
    if (stop >= 0) lines = lines.slice(0, stop);
  }
  if (lines.flat().length > MAX_ITEMS) return undefined;
  if (options.replace !== undefined) return lines;
  const out: string[][] = [];
  if (options.maxLines !== undefined)
    for (let at = 0; at < lines.length; at += options.maxLines)
      out.push(lines.slice(at, at + options.maxLines).flat());
  else if (options.maxArgs !== undefined) {
    const items = lines.flat();
    for (let at = 0; at < items.length; at += options.maxArgs)
      out.push(items.slice(at, at + options.maxArgs));
  } else out.push(lines.flat());
  return out;
}

const known = (text: string): ShellWord => ({ text, dynamic: false, glob: false, substitutions: [] });

/**
 * An input known only from its literal start (`echo /dev/$NAME`): its complete items, then the
 * last one as a word known only at run time that starts with what is known of it.
 */
function partialItems(input: ShellWord, options: XargsOptions): ShellWord[] | undefined {
  const prefix = typeof input.parts?.[0] === 'string' ? input.parts[0] : '';
  if (options.delimiter !== undefined || /['"\\]/.test(prefix)) return undefined;
  const items = quotedItems(prefix, options.replace === undefined) ?? [];
  const open = prefix !== '' && !/\s$/.test(prefix) ? (items.pop() ?? '') : '';
  const unknown: ShellWord = { text: open, dynamic: true, glob: false, substitutions: [], parts: [open] };
  return [...items.map(known), unknown];
}

/** The command with the `-I` string replaced by an item in each word that holds it. */
function replaced(command: readonly ShellWord[], marker: string, item: ShellWord): ShellWord[] {
  return command.map((word) => {
    if (word.dynamic || !word.text.includes(marker)) return word;
    const text = word.text.replaceAll(marker, item.text);
    if (!item.dynamic) return known(text);
    return {
      text,
      dynamic: true,
      glob: false,
      substitutions: [],
      parts: [word.text.slice(0, word.text.indexOf(marker)) + item.text],
    };
  });
}

/**
 * The commands `xargs OPTIONS COMMAND...` runs when its standard input is known (a literal
 * `echo`/`printf` before it in a pipeline, a herestring): COMMAND with the items appended, or
 * with the `-I` string replaced, one list of words per command; for an input known only in
 * part, one command with what is known. Undefined when xargs reads a file (`-a`) or an option
 * or the input is not understood (the caller keeps its judgement for run-time arguments);
 * `'too-many'` past {@link MAX_INVOCATIONS}.
 */
function xargsCommands(
  optionWords: readonly ShellWord[],
  command: readonly ShellWord[],
  inputs: readonly ShellWord[],
): ShellWord[][] | 'too-many' | undefined {
  const options = readOptions(optionWords);
  if (!options) return undefined;
  const base = command.length > 0 ? command : [known('echo')];
  const marker = options.replace;
  const commands: ShellWord[][] = [];
  for (const input of inputs) {
    if (input.dynamic) {
      const items = partialItems(input, options);
      if (!items) return undefined;
      commands.push(
        marker !== undefined ? replaced(base, marker, items[0] as ShellWord) : [...base, ...items],
      );
      continue;
    }
    const argumentGroups = groups(input.text, options);
    if (!argumentGroups) return undefined;
    for (const group of argumentGroups) {
      if (marker !== undefined) commands.push(replaced(base, marker, known(group[0] ?? '')));
      else commands.push([...base, ...group.map(known)]);
      if (commands.length > MAX_INVOCATIONS) return 'too-many';
    }
  }
  return commands;
}

/**
 * `xargs -a <(echo /dev/sda) tee` (also `--arg-file`): the items come from a process
 * substitution whose output is known. Returns xargs' other option words and that input, or
 * undefined when its items do not come from one.
 */
function argFileInput(
  optionWords: readonly ShellWord[],
  outputsOf: (substitution: Node) => ShellWord[] | undefined,
): { options: ShellWord[]; input: ShellWord[] } | undefined {
  const at = optionWords.findIndex((word) => !word.dynamic && /^(-a|--arg-file)$/.test(word.text));
  const file = optionWords[at + 1];
  const substitution = file?.substitutions.length === 1 ? file.substitutions[0] : undefined;
  if (at < 0 || substitution?.type !== 'process_substitution') return undefined;
  const input = outputsOf(substitution);
  return input
    ? { options: optionWords.filter((_, index) => index !== at && index !== at + 1), input }
    : undefined;
}

/** The replace string of `xargs -I R` / `-i` / `--replace[=R]`, if any. */
function xargsReplacement(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic || !word.text.startsWith('-')) return undefined;
    const text = word.text;
    if (text === '--') return undefined;
    if (text === '-I') return args[index + 1]?.text;
    if (/^-I./.test(text)) return text.slice(2);
    if (text === '-i' || text === '--replace') return '{}';
    if (text.startsWith('-i')) return text.slice(2);
    if (text.startsWith('--replace=')) return text.slice('--replace='.length) || '{}';
    if (
      /^-[dEeLnPsa]$/.test(text) ||
      /^--(arg-file|delimiter|max-args|max-procs|max-chars|max-lines)$/.test(text)
    )
      index++;
  }
  return undefined;
}

/**
 * The commands `xargs OPTIONS COMMAND...` is followed into: with a known input (a literal `echo`
 * before it in a pipeline, a herestring, `-a <(...)`) the commands it builds
 * ({@link xargsCommands}); otherwise COMMAND itself, its words that hold the replace string
 * (`-I{}`) marked as file names known only at run time. Known input only adds what it shows:
 * the commands still count as fed at run time.
 */
export function xargsRuns(
  state: AnalysisState,
  scope: Scope,
  args: readonly ShellWord[],
  command: readonly ShellWord[],
  text: string,
): (readonly ShellWord[])[] {
  // `echo /dev/sda | xargs tee`: with a known input, the commands xargs runs are known.
  const options = args.slice(0, args.length - command.length);
  const file = argFileInput(options, (node) => processSubstitutionOutputs(node, outputReaders(state.facts)));
  const input = file?.input ?? knownInput(scope);
  const built = input ? xargsCommands(file?.options ?? options, command, input) : undefined;
  if (built === 'too-many') notUnderstood(state, 'xargs is fed more input than is followed', text);
  // `xargs -I{} tee /dev/{}`: the replaced words are file names known only at run time.
  const replacement = xargsReplacement(args);
  const words = replacement ? command.map((word) => markRunTimeName(word, replacement)) : command;
  return built && built !== 'too-many' ? built : [words];
}
