import { type ShellWord, sliceWord } from '../words/shell-word.js';

/** How to find the wrapped command inside a wrapper's arguments. */
export interface WrapperSpec {
  /** Short options that take a value (`-u user`). */
  readonly shortWithValue?: string;
  /** Long options that take a separate value (`--user root`); `--opt=value` is always understood. */
  readonly longWithValue?: readonly string[];
  /** Positional arguments before the command (`timeout 10 cmd`). */
  readonly positional?: number;
  /** `NAME=value` words before the command are environment assignments (`env`). */
  readonly assignments?: boolean;
  /** Options after which nothing is run (`command -v x` only looks up x). */
  readonly queryOptions?: string;
  /** Runs the command with raised privileges. */
  readonly elevates?: boolean;
  /** Options whose value is a shell command line (`su -c`, `flock -c`). */
  readonly scriptOptions?: string;
  /** Options that make the wrapper run something this analysis cannot follow (`env -S`). */
  readonly opaqueOptions?: string;
  /** Long options that do so (`env --split-string`); any unique prefix counts, as in getopt. */
  readonly opaqueLongOptions?: readonly string[];
  /** Runs only the command given to a script option; its operands are files (`script -c cmd log`). */
  readonly scriptOnly?: boolean;
  /** A wrapper that feeds extra arguments from its input (`xargs`). */
  readonly extraArgs?: boolean;
  /** A wrapper whose first operand is a file or lock it needs, not the command (`flock file cmd`). */
  readonly numericFirstOption?: boolean;
  /** Short option whose value is the directory the command runs in (`env -C DIR`, `sudo -D DIR`). */
  readonly chdirShort?: string;
  /** Long option that does so (`--chdir`, `--wd`); any unique prefix counts. */
  readonly chdirLong?: string;
}

/** Wrappers that run another command; the wrapped command is what rules are matched against. */
export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  [
    'env',
    {
      shortWithValue: 'uCP',
      longWithValue: ['unset', 'chdir'],
      chdirShort: 'C',
      chdirLong: 'chdir',
      assignments: true,
      opaqueOptions: 'S',
      opaqueLongOptions: ['split-string'],
    },
  ],
  ['command', { queryOptions: 'vV' }],
  ['builtin', {}],
  ['exec', { shortWithValue: 'a' }],
  ['nohup', {}],
  ['time', { shortWithValue: 'fo' }],
  ['setsid', {}],
  ['unbuffer', {}],
  ['caffeinate', {}],
  ['nice', { shortWithValue: 'n', longWithValue: ['adjustment'], numericFirstOption: true }],
  ['ionice', { shortWithValue: 'cnP', queryOptions: 'p' }],
  ['chrt', { positional: 1 }],
  ['taskset', { positional: 1 }],
  ['stdbuf', { shortWithValue: 'ioe' }],
  ['timeout', { shortWithValue: 'sk', longWithValue: ['signal', 'kill-after'], positional: 1 }],
  [
    'sudo',
    {
      shortWithValue: 'ugCDhprtUT',
      longWithValue: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'other-user'],
      chdirShort: 'D',
      chdirLong: 'chdir',
      elevates: true,
      queryOptions: 'lv',
    },
  ],
  ['doas', { shortWithValue: 'uC', elevates: true }],
  ['su', { shortWithValue: 'sg', scriptOptions: 'c', elevates: true, positional: 1 }],
  ['runuser', { shortWithValue: 'ugs', scriptOptions: 'c', elevates: true, positional: 1 }],
  ['flock', { shortWithValue: 'wEo', scriptOptions: 'c', positional: 1 }],
  [
    'xargs',
    {
      shortWithValue: 'IdELnPsa',
      longWithValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'max-lines', 'replace'],
      extraArgs: true,
    },
  ],
  ['watch', { shortWithValue: 'nqd', longWithValue: ['interval'] }],
  // `busybox rm -rf /` runs the applet rm (toybox too).
  ['busybox', {}],
  ['toybox', {}],
  ['chroot', { longWithValue: ['userspec', 'groups'], positional: 1 }],
  [
    'unshare',
    {
      shortWithValue: 'SGRw',
      longWithValue: ['setuid', 'setgid', 'root', 'wd'],
      chdirShort: 'w',
      chdirLong: 'wd',
    },
  ],
  [
    'nsenter',
    {
      shortWithValue: 'tSGw',
      longWithValue: ['target', 'setuid', 'setgid', 'wd'],
      chdirShort: 'w',
      chdirLong: 'wd',
    },
  ],
  [
    'strace',
    { shortWithValue: 'abeEIoOpPsSuUX', longWithValue: ['output', 'attach', 'user', 'env', 'string-limit'] },
  ],
  ['ltrace', { shortWithValue: 'aAeDFlnopsuwx', longWithValue: ['output', 'library'] }],
  // valgrind's options are all `--name=value`; catchsegv takes none.
  ['valgrind', {}],
  ['catchsegv', {}],
  ['fakeroot', { shortWithValue: 'lsi', longWithValue: ['lib', 'faked'] }],
  ['firejail', {}],
  ['setpriv', {}],
  [
    'systemd-run',
    {
      shortWithValue: 'pEuHMs',
      longWithValue: [
        'unit',
        'property',
        'description',
        'slice',
        'uid',
        'gid',
        'nice',
        'setenv',
        'host',
        'machine',
      ],
    },
  ],
  ['pkexec', { longWithValue: ['user'], elevates: true }],
  [
    'run0',
    {
      shortWithValue: 'ugD',
      longWithValue: ['user', 'group', 'chdir'],
      chdirShort: 'D',
      chdirLong: 'chdir',
      elevates: true,
    },
  ],
  ['script', { shortWithValue: 'EIOBTm', scriptOptions: 'c', scriptOnly: true }],
]);

/** Result of peeling one wrapper off a command's words. */
export type Peeled =
  | {
      readonly kind: 'command';
      readonly words: readonly ShellWord[];
      /** Names the wrapper sets in the command's environment (`env NAME=value`). */
      readonly assignments: readonly string[];
      /** The `NAME=value` words themselves. */
      readonly assignmentWords: readonly ShellWord[];
      /** The directory the command runs in (`env -C DIR`), when the wrapper changes it. */
      readonly directory?: ShellWord;
    }
  | { readonly kind: 'script'; readonly script: ShellWord }
  | { readonly kind: 'query' }
  | { readonly kind: 'opaque'; readonly reason: string };

/**
 * Finds the command a wrapper runs. `args` are the words after the wrapper's name.
 * Returns the wrapped command's words, a script string to parse, or that nothing runs.
 */
export function peelWrapper(spec: WrapperSpec, args: readonly ShellWord[]): Peeled {
  let index = 0;
  const assignments: string[] = [];
  const assignmentWords: ShellWord[] = [];
  let directory: ShellWord | undefined;
  let positional = spec.positional ?? 0;
  while (index < args.length) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return { kind: 'opaque', reason: 'a wrapper option is computed at run time' };
    const text = word.text;
    if (text === '--') {
      index++;
      break;
    }
    if (text.startsWith('--') && text.length > 2) {
      // getopt_long takes any unique prefix: `--un FOO` is `--unset FOO`.
      const name = text.slice(2).split('=')[0] as string;
      const matches = (full: string): boolean => full.startsWith(name);
      if (spec.opaqueLongOptions?.some(matches))
        return { kind: 'opaque', reason: `the ${text.split('=')[0]} option of this wrapper is not followed` };
      const equals = text.indexOf('=');
      if (spec.chdirLong !== undefined && matches(spec.chdirLong))
        directory = equals >= 0 ? sliceWord(word, equals + 1) : args[index + 1];
      index += equals < 0 && spec.longWithValue?.some(matches) ? 2 : 1;
      continue;
    }
    if (text === '-') {
      index++; // `su -` (login shell), `env -` (empty environment)
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      if (spec.numericFirstOption && /^-\d+$/.test(text)) {
        index++;
        continue;
      }
      const letters = text.slice(1);
      for (let at = 0; at < letters.length; at++) {
        const letter = letters[at] as string;
        if (spec.queryOptions?.includes(letter)) return { kind: 'query' };
        if (spec.opaqueOptions?.includes(letter))
          return { kind: 'opaque', reason: `the -${letter} option of this wrapper is not followed` };
        if (spec.scriptOptions?.includes(letter)) {
          const inline = letters.slice(at + 1);
          const script = inline ? { ...word, text: inline } : args[index + 1];
          if (!script) return { kind: 'opaque', reason: `-${letter} without a command` };
          return { kind: 'script', script };
        }
        if (spec.shortWithValue?.includes(letter)) {
          if (spec.chdirShort === letter)
            directory = at === letters.length - 1 ? args[index + 1] : sliceWord(word, at + 2);
          if (at === letters.length - 1) index++;
          break;
        }
      }
      index++;
      continue;
    }
    // env takes every word with `=` before the command as NAME=VALUE (`BASH_FUNC_ls%%=...` too).
    if (spec.assignments && /^[^=]+=/.test(text)) {
      assignments.push(text.slice(0, text.indexOf('=')));
      assignmentWords.push(word);
      index++;
      continue;
    }
    if (positional > 0) {
      positional--;
      index++;
      continue;
    }
    break;
  }
  return {
    kind: 'command',
    words: args.slice(index),
    assignments,
    assignmentWords,
    ...(directory ? { directory } : {}),
  };
}
