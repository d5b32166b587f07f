import type { Node } from 'web-tree-sitter';
import { allKey, arrayName, joinElements, elementsOf, sparseKey } from './arrays.js';
import { isAssociative, setAssociative } from './associative.js';
import { Variables } from './namerefs.js';
import { markSparse, sparseIndexes } from './sparse-arrays.js';
import { type ShellWord, literalPrefix } from './shell-word.js';

/** Most possible values kept for one variable or the working directory, and readings of one word. */
export const MAX_VALUES = 64;
/** Longest value followed (as long as a command line may be); longer ones overflow. */
export const MAX_TEXT = 65_536;
/** Most variables followed in one command line. */
export const MAX_VARIABLES = 256;

/**
 * What `$$` or `$BASHPID` reads as in `/proc/$$/cwd`: the shell running the line (not the
 * program that opens the path, which `self` names). Not a process id any path can hold.
 */
export const SHELL_PROCESS = '\u0003shell';

/** A value known only at run time (an environment variable, `$(cmd)`, the home directory). */
export const RUN_TIME: ShellWord = { text: '', dynamic: true, glob: false, substitutions: [] };

/** The working directory the line starts in: relative paths stay relative to it. */
export const START: ShellWord = { text: '', dynamic: false, glob: false, substitutions: [] };

/**
 * What earlier commands of the line set, as far as static analysis can follow: the possible
 * values of variables assigned literal text, and the possible working directories after `cd`
 * and `pushd`. Used only to find more writes into devices, never to allow more: a value not
 * followed here leaves a word as unknown as it was.
 */
export interface LineFacts {
  /** Possible values by variable; a name not here has its value from the environment. */
  variables: Variables;
  /** Possible working directories. */
  directories: readonly ShellWord[];
  /** Possible directories before the last change (`cd -`). */
  previous: readonly ShellWord[];
  /** The `pushd` stack, top last. */
  stack: readonly (readonly ShellWord[])[];
  /**
   * Links and device nodes made in the line (`ln -s /dev/sda x`, `mknod x b 8 0`), by the path
   * they were made at: what they lead to. Files outlive subshells, so this is never rolled back.
   */
  readonly links: Map<string, ShellWord>;
  /** What each function defined in the line leaves behind when called (never rolled back either). */
  readonly functions: Map<string, FunctionEffects>;
  /**
   * Files open on descriptors (`exec 3</dev/sda`, or a statement's own `< /dev/sda` while its
   * command is walked), placed where they were opened; replaced, never changed in place.
   */
  descriptors: ReadonlyMap<number, readonly ShellWord[]>;
  /** Static alias bodies defined in the line, by name (never rolled back). */
  readonly aliases: Map<string, string>;
  /** Names declared local in the function body being walked (`local`, `declare`). */
  locals?: Set<string>;
  /**
   * Working directories of the shell `$$` names, when the commands walked now may run elsewhere
   * (in a subshell, or moved by a wrapper such as `env -C`); undefined when they are `directories`.
   */
  shellDirectories: readonly ShellWord[] | undefined;
  /** Working directories of the (sub)shell `$BASHPID` names, when a wrapper moved the command. */
  processDirectories: readonly ShellWord[] | undefined;
  /** Variables with the integer attribute (`declare -i`): what is assigned to them is arithmetic. */
  integers: ReadonlySet<string>;
  /**
   * Texts bash evaluates as arithmetic that hold a command substitution (`a[$(cmd)]` assigned to
   * an integer variable, or read by `$((X))`), waiting to be judged after the statement; shared by
   * every snapshot, so none is lost when a child's facts are rolled back.
   */
  readonly arithmeticCode: string[];
  /** Every text ever put in {@link arithmeticCode}, so each is judged once. */
  readonly arithmeticSeen: Set<string>;
  /** More values or variables than are followed: the line is asked. */
  overflow: boolean;
}

/** Facts at the start of a line: no variable set, the starting directory. */
export function createFacts(): LineFacts {
  return {
    variables: new Variables(),
    directories: [START],
    previous: [RUN_TIME],
    stack: [],
    links: new Map(),
    functions: new Map(),
    descriptors: new Map(),
    aliases: new Map(),
    shellDirectories: undefined,
    processDirectories: undefined,
    integers: new Set(),
    arithmeticCode: [],
    arithmeticSeen: new Set(),
    overflow: false,
  };
}

/** The variables and directory a function's body changes for its caller. */
export interface FunctionEffects {
  readonly variables: ReadonlyMap<string, readonly ShellWord[]>;
  readonly directories?: readonly ShellWord[];
  /** The body, walked again for a call with arguments (`f /dev/sda` with `tee "$1"` inside). */
  readonly body?: Node;
}

type Snapshot = Omit<LineFacts, 'overflow'>;

function snapshot(facts: LineFacts): Snapshot {
  return { ...facts, variables: new Variables(facts.variables) };
}

const keyOf = (word: ShellWord): string => `${word.dynamic ? '?' : '='}${word.text}`;

/** Every value once; past {@link MAX_VALUES} the facts overflow. */
export function distinct(facts: LineFacts, words: readonly ShellWord[]): ShellWord[] {
  const seen = new Map<string, ShellWord>();
  for (const word of words) if (!seen.has(keyOf(word))) seen.set(keyOf(word), word);
  if (seen.size > MAX_VALUES) facts.overflow = true;
  return [...seen.values()].slice(0, MAX_VALUES);
}

const union = (facts: LineFacts, first: readonly ShellWord[], second: readonly ShellWord[]): ShellWord[] =>
  distinct(facts, [...first, ...second]);

/**
 * Runs `walk` for a part of the line that runs in a child (a subshell, a pipeline stage, a
 * substitution, `bash -c`, a function body defined for later): what it sets is forgotten after.
 */
export function inChild(facts: LineFacts, walk: () => void, kind?: 'subshell' | 'shell'): void {
  const before = snapshot(facts);
  // A subshell keeps `$$`, the shell it was forked from; `bash -c` is a shell of its own.
  if (kind === 'subshell') facts.shellDirectories ??= facts.processDirectories ?? facts.directories;
  if (kind) facts.processDirectories = undefined;
  if (kind === 'shell') facts.shellDirectories = undefined;
  walk();
  Object.assign(facts, before);
}

/**
 * Walks a function body where it is defined, as a child (nothing it sets is seen after the
 * definition), and keeps what it changes (its `local` names aside) for the places it is called.
 */
export function defineFunction(facts: LineFacts, name: string, walk: () => void): void {
  const before = snapshot(facts);
  const outerLocals = facts.locals;
  const locals = new Set<string>();
  facts.locals = locals;
  walk();
  const variables = new Map<string, readonly ShellWord[]>();
  for (const [variable, values] of facts.variables)
    if (before.variables.get(variable) !== values && !locals.has(arrayName(variable)))
      variables.set(variable, values);
  const directories = facts.directories !== before.directories ? facts.directories : undefined;
  Object.assign(facts, before);
  facts.locals = outerLocals;
  facts.functions.set(name, { variables, ...(directories ? { directories } : {}) });
}

/** A call of a function defined in the line: what its body changed now holds. */
export function callFunction(facts: LineFacts, name: string): void {
  const effects = facts.functions.get(name);
  if (!effects) return;
  for (const [variable, values] of effects.variables) facts.variables.set(variable, values);
  if (effects.directories) {
    facts.previous = facts.directories;
    facts.directories = effects.directories;
  }
}

/**
 * Runs `walk` for a part of the line that may or may not run (after `&&` or `||`, a branch, a
 * loop body): afterwards every value it set is possible, and so is every value before it.
 */
export function maybe(facts: LineFacts, walk: () => void): void {
  const before = snapshot(facts);
  walk();
  // Value lists are replaced, never changed in place: only the ones that differ are merged.
  for (const name of new Set([...before.variables.keys(), ...facts.variables.keys()])) {
    const was = before.variables.get(name);
    const now = facts.variables.get(name);
    if (was !== now) facts.variables.set(name, union(facts, was ?? [RUN_TIME], now ?? [RUN_TIME]));
  }
  if (before.integers !== facts.integers) facts.integers = new Set([...before.integers, ...facts.integers]);
  if (before.directories !== facts.directories)
    facts.directories = union(facts, before.directories, facts.directories);
  if (before.previous !== facts.previous) facts.previous = union(facts, before.previous, facts.previous);
  if (before.descriptors !== facts.descriptors) {
    const merged = new Map(facts.descriptors);
    for (const descriptor of new Set([...before.descriptors.keys(), ...facts.descriptors.keys()])) {
      const was = before.descriptors.get(descriptor) ?? [RUN_TIME];
      const now = facts.descriptors.get(descriptor) ?? [RUN_TIME];
      if (was !== now) merged.set(descriptor, union(facts, was, now));
    }
    facts.descriptors = merged;
  }
}

/** A value as stored: its text, whether it is known, nothing of the word it came from. */
export const valueWord = (text: string, dynamic: boolean, prefix?: string): ShellWord => ({
  text,
  dynamic,
  glob: false,
  substitutions: [],
  ...(dynamic && prefix ? { parts: [prefix] } : {}),
});

/** Records `name=value` (or `name+=value`) for the words that follow. */
export function assignVariable(
  facts: LineFacts,
  name: string,
  values: readonly ShellWord[],
  appending = false,
): void {
  let append = appending;
  if (!facts.variables.has(name) && facts.variables.size >= MAX_VARIABLES) {
    facts.overflow = true;
    return;
  }
  // `declare -i n`: the value is arithmetic, evaluated now (`n+=1` adds).
  let next = [...values];
  if (facts.integers.has(arrayName(name))) {
    next = integerValues(facts, values, append);
    append = false;
  }
  if (append) {
    next = [];
    for (const old of facts.variables.get(name) ?? [RUN_TIME])
      for (const value of values) {
        if (old.text.length + value.text.length > MAX_TEXT) {
          facts.overflow = true;
          next.push(RUN_TIME);
          continue;
        }
        next.push(
          valueWord(
            old.text + value.text,
            old.dynamic || value.dynamic,
            old.dynamic ? literalPrefix(old) : old.text + (literalPrefix(value) ?? ''),
          ),
        );
      }
  }
  // No value at all is never a reading that matches nothing: it stays unknown.
  const stored = next.length > 0 ? union(facts, [], next) : [RUN_TIME];
  facts.variables.set(name, stored);
  // `m=x` sets the element of key 0 of an associative array m.
  if (!name.includes('[') && isAssociative(facts, name)) {
    setAssociative(facts, name, '0', stored);
    return;
  }
  // `A=x` sets element 0 of an array A.
  const whole = name.includes('[') ? undefined : facts.variables.get(allKey(name));
  // In a sparse array the first position may not be index 0: the value is put before it
  // (and index 0 added to its indexes when they are known).
  const sparse = !name.includes('[') && facts.variables.has(sparseKey(name));
  const indexes = sparse ? sparseIndexes(facts.variables, name) : undefined;
  const kept = !sparse || indexes?.[0] === 0 ? 1 : 0;
  if (whole && indexes && kept === 0) markSparse(facts.variables, name, [0, ...indexes]);
  if (whole)
    facts.variables.set(
      allKey(name),
      distinct(
        facts,
        whole.flatMap((old) => stored.map((value) => joinElements([value, ...elementsOf(old).slice(kept)]))),
      ),
    );
}

/** Forgets a variable (`unset`): its value is unknown again. */
export function forgetVariable(facts: LineFacts, variable: string): void {
  // `unset r` for a nameref r unsets the variable it names.
  const name = facts.variables.resolveName(variable);
  for (const key of facts.variables.keys()) if (arrayName(key) === name) facts.variables.delete(key);
}

/**
 * Runs `walk` with variables set for one command only (`OUT=x cmd`, `env OUT=x cmd`): the
 * command and the programs it starts see them, the rest of the line does not.
 */
export function withVariables(
  facts: LineFacts,
  assignments: readonly { readonly name: string; readonly values: readonly ShellWord[] }[],
  walk: () => void,
): void {
  if (assignments.length === 0) {
    walk();
    return;
  }
  const before = new Map(assignments.map(({ name }) => [name, facts.variables.get(name)]));
  for (const { name, values } of assignments) assignVariable(facts, name, values);
  walk();
  // Only the names set for the command go back; what the command itself set stays.
  for (const [name, values] of before) {
    if (values) facts.variables.set(name, values);
    else facts.variables.delete(name);
  }
}

/** Most texts with a command substitution judged as arithmetic in one line; more overflow. */
const MAX_ARITHMETIC_CODE = 64;

/**
 * Puts the values bash evaluates as arithmetic that hold a command substitution (`$(` or a
 * backtick, which run when they sit in an array index) on {@link LineFacts.arithmeticCode}.
 */
export function queueArithmeticCode(facts: LineFacts, values: readonly ShellWord[]): void {
  for (const value of values) {
    if (!/\$\(|`/.test(value.text) || facts.arithmeticSeen.has(value.text)) continue;
    if (facts.arithmeticSeen.size >= MAX_ARITHMETIC_CODE) {
      facts.overflow = true;
      return;
    }
    facts.arithmeticSeen.add(value.text);
    facts.arithmeticCode.push(value.text);
  }
}

/**
 * What an integer variable holds after an assignment: a literal whole number stays, anything
 * else is a number worked out at run time; code in the values is queued to be judged.
 */
function integerValues(facts: LineFacts, values: readonly ShellWord[], append: boolean): ShellWord[] {
  queueArithmeticCode(facts, values);
  const only = values.length === 1 ? values[0] : undefined;
  return !append && only && !only.dynamic && /^-?(0|[1-9][0-9]{0,8})$/.test(only.text) ? [only] : [RUN_TIME];
}
