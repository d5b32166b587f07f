import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';

/** What an option of a debugger does with its value. */
type OptionKind = 'commands' | 'file' | 'attach' | 'value' | 'flag';

/** Most dangerous first: a prefix that could mean several options is read as the worst. */
const RANK: readonly OptionKind[] = ['commands', 'file', 'attach', 'value', 'flag'];

interface DebuggerSpec {
  readonly label: string;
  readonly options: ReadonlyMap<string, OptionKind>;
  /** The operand that attaches when it is a number (`gdb prog 1234`). */
  readonly pidOperand?: number;
  /** Everything after it belongs to the program being debugged (`gdb --args prog -x`). */
  readonly stop: ReadonlySet<string>;
  /** The shell command inside one debugger command (`shell rm x`, `!rm x`, `platform shell rm x`). */
  readonly shellCommand: (command: string) => string | undefined;
}

/** gdb's `pipe COMMAND | SHELL`, `| COMMAND | SHELL`, `pipe -d DELIM COMMAND DELIM SHELL`. */
function gdbPipe(command: string): string | undefined {
  const rest = /^\s*(?:pipe\s|\|)(.*)$/s.exec(command)?.[1];
  if (rest === undefined) return undefined;
  const delimited = /^\s*-d\s+(\S+)\s(.*)$/s.exec(rest);
  const delimiter = delimited ? (delimited[1] as string) : '|';
  const body = delimited ? (delimited[2] as string) : rest;
  const at = body.indexOf(delimiter);
  return at < 0 ? undefined : body.slice(at + delimiter.length);
}

const entries = (kind: OptionKind, names: readonly string[]) => names.map((name) => [name, kind] as const);

// gdb reads options with getopt_long_only: `-ex` and `--ex` alike, any unique prefix (`-eval`).
const GDB: DebuggerSpec = {
  label: 'gdb',
  options: new Map<string, OptionKind>([
    ...entries('commands', ['ex', 'iex', 'eval-command', 'init-eval-command']),
    ...entries('file', ['x', 'ix', 'command', 'init-command']),
    ...entries('attach', ['p', 'pid']),
    ...entries('value', [
      'se',
      's',
      'symbols',
      'e',
      'exec',
      'c',
      'core',
      'd',
      'directory',
      'cd',
      'D',
      'data-directory',
      't',
      'tty',
      'b',
      'l',
      'i',
      'interpreter',
    ]),
  ]),
  pidOperand: 1,
  stop: new Set(['args']),
  shellCommand: (command) => /^\s*(?:!|she(?:l|ll)?\s)\s*(.*)$/s.exec(command)?.[1] ?? gdbPipe(command),
};

const LLDB: DebuggerSpec = {
  label: 'lldb',
  options: new Map<string, OptionKind>([
    ...entries('commands', ['o', 'one-line', 'O', 'one-line-before-file', 'k', 'one-line-on-crash']),
    ...entries('file', ['s', 'source', 'S', 'source-before-file', 'K', 'source-on-crash']),
    ...entries('attach', ['p', 'attach-pid', 'n', 'attach-name']),
    ...entries('value', ['f', 'file', 'c', 'core', 'a', 'arch', 'l', 'script-language']),
    ...entries('flag', ['w', 'wait-for']),
  ]),
  stop: new Set(),
  // `platform shell [-h SHELL] [-t SECONDS] -- cmd`: options only when the command starts with `-`.
  shellCommand: (command) =>
    /^\s*(?:pl[a-z]*\s+)?sh(?:e|el|ell)?\s+(?:-.*?\s--\s+)?(.*)$/s.exec(command)?.[1],
};

/** gdb and lldb under their usual names; cgdb is a front end that passes gdb its options. */
function debuggerOf(name: string): DebuggerSpec | undefined {
  if (/^(rust-)?gdb(-multiarch)?$|^cgdb$/.test(name)) return GDB;
  if (/^(rust-)?lldb(-[0-9]+)?$/.test(name)) return LLDB;
  return undefined;
}

/** The kind of an option by exact name, else by unique prefix (the worst kind if several match). */
function kindOf(spec: DebuggerSpec, name: string): OptionKind | undefined {
  const exact = spec.options.get(name);
  if (exact) return exact;
  if (name.length < 2) return undefined;
  const kinds = new Set<OptionKind>();
  for (const [full, kind] of spec.options) if (full.length > 1 && full.startsWith(name)) kinds.add(kind);
  return RANK.find((kind) => kinds.has(kind));
}

const isPid = (word: ShellWord | undefined): boolean => word !== undefined && /^[0-9]+$/.test(word.text);

/**
 * Debuggers run commands they are given (`gdb -ex 'shell cmd'`, `gdb -x file`, `lldb -o 'platform
 * shell cmd'`) and attach to running processes (`gdb -p PID`), whose memory and code they can then
 * change: such a command line is asked. The shell commands inside are parsed when static, so a
 * deny rule still denies (`gdb -ex 'shell rm -rf /'`).
 */
export function inspectDebuggers(state: AnalysisState, scope: Scope, command: SimpleCommand): void {
  if (command.name === 'gdbserver') {
    if (!command.args.every((word) => /^--(version|help)$/.test(word.text)))
      notUnderstood(state, 'gdbserver lets whoever reaches its port run code as this user', command.text);
    return;
  }
  const spec = debuggerOf(command.name);
  if (!spec) return;
  // `cgdb [--] gdb-options`: the first `--` only separates cgdb's own options.
  const separator = command.name === 'cgdb' ? command.args.findIndex((word) => word.text === '--') : -1;
  const args =
    separator < 0
      ? command.args
      : [...command.args.slice(0, separator), ...command.args.slice(separator + 1)];
  const operands: ShellWord[] = [];
  const asked = (reason: string) => notUnderstood(state, `${spec.label} ${reason}`, command.text);
  if (scope.stdinFrom.length > 0) asked('reads commands from its standard input, which can run anything');
  let computed = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) {
      // Read on as if it were an operand, so a static `-ex 'shell ...'` after it is still judged.
      if (!computed) asked('arguments decided at run time may run commands or attach to a process');
      computed = true;
      operands.push(word);
      continue;
    }
    if (word.text === '--') {
      if (spec.label === 'lldb') return; // the program and its arguments follow
      operands.push(...args.slice(index + 1));
      break;
    }
    if (!word.text.startsWith('-') || word.text === '-') {
      operands.push(word);
      continue;
    }
    const body = word.text.replace(/^--?/, '');
    const equals = body.indexOf('=');
    let name = equals < 0 ? body : body.slice(0, equals);
    if (spec.stop.has(name)) break;
    let inline = equals < 0 ? undefined : body.slice(equals + 1);
    let kind = kindOf(spec, name);
    if (kind === undefined && inline === undefined && spec.options.has(name[0] as string)) {
      // A single-letter option with its value attached (`-p1234`, `-xcmds.gdb`).
      inline = name.slice(1);
      name = name[0] as string;
      kind = spec.options.get(name);
    }
    if (kind === undefined || kind === 'flag') {
      if (name === 'w' || name === 'wait-for') asked('attaches to a running process');
      continue;
    }
    const given = equals < 0 && inline !== undefined ? `-${name}` : (word.text.split('=')[0] as string);
    const value = inline !== undefined ? { ...word, text: inline } : args[++index];
    if (value === undefined) continue;
    if (value.dynamic) {
      asked('arguments decided at run time may run commands or attach to a process');
      continue;
    }
    if (kind === 'commands') {
      asked(`runs commands given in ${given}, which can run anything`);
      const shell = spec.shellCommand(value.text);
      if (shell !== undefined && shell.trim() !== '')
        state.nested.analyzeScript(
          state,
          { ...scope, depth: scope.depth + 1, via: [...scope.via, `${spec.label} ${name}`] },
          shell,
          command.text,
        );
    } else if (kind === 'file') asked(`runs commands read from the file ${value.text}`);
    else if (kind === 'attach' || (name === 'c' && isPid(value))) asked('attaches to a running process');
  }
  if (spec.pidOperand !== undefined && isPid(operands[spec.pidOperand]))
    asked('attaches to a running process');
}
