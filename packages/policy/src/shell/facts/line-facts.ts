import type { Node } from 'web-tree-sitter';
import type { ShellWord } from '../words/shell-word.js';
import { Variables } from './namerefs.js';

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
  /**
   * Files the line writes, by the path they are written at: each write's text when the line
   * shows it (`echo 'ls' > s.sh`), undefined when it does not (`cp x s.sh`, `> s.sh` of a
   * command's output). Never rolled back: a file written in a subshell stays.
   */
  readonly files: Map<string, FileWrite[]>;
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

/** One write of a file in the line. */
export interface FileWrite {
  /** The text written, when it is known. */
  readonly text: string | undefined;
  /** `>>`: added after what the file held. */
  readonly append: boolean;
}

/** Facts at the start of a line: no variable set, the starting directory. */
export function createFacts(): LineFacts {
  return {
    variables: new Variables(),
    directories: [START],
    previous: [RUN_TIME],
    stack: [],
    links: new Map(),
    files: new Map(),
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

const keyOf = (word: ShellWord): string => `${word.dynamic ? '?' : '='}${word.text}`;

/** Every value once; past {@link MAX_VALUES} the facts overflow. */
export function distinct(facts: LineFacts, words: readonly ShellWord[]): ShellWord[] {
  const seen = new Map<string, ShellWord>();
  for (const word of words) if (!seen.has(keyOf(word))) seen.set(keyOf(word), word);
  if (seen.size > MAX_VALUES) facts.overflow = true;
  return [...seen.values()].slice(0, MAX_VALUES);
}

/** The values of both lists, each once ({@link distinct}). */
export const union = (
  facts: LineFacts,
  first: readonly ShellWord[],
  second: readonly ShellWord[],
): ShellWord[] => distinct(facts, [...first, ...second]);

/** A value as stored: its text, whether it is known, nothing of the word it came from. */
export const valueWord = (text: string, dynamic: boolean, prefix?: string): ShellWord => ({
  text,
  dynamic,
  glob: false,
  substitutions: [],
  ...(dynamic && prefix ? { parts: [prefix] } : {}),
});
