import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';

/** Git configuration keys whose value is a command that git runs. */
const GIT_COMMAND_KEY =
  /^(core\.(sshcommand|pager|editor|fsmonitor|gitproxy|askpass|hookspath)|sequence\.editor|credential\.helper|alias\..+|pager\..+|.+\.(command|cmd|program|textconv|helper|driver|clean|smudge|process))$/i;

/** Options whose value is a command line, per program (`--opt=value` and `--opt value`). */
const COMMAND_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['git', ['--upload-pack', '--receive-pack', '--exec']],
  ['rsync', ['-e', '--rsh', '--rsync-path']],
  [
    'tar',
    [
      '--to-command',
      '--use-compress-program',
      '-I',
      '--info-script',
      '-F',
      '--new-volume-script',
      '--checkpoint-action',
    ],
  ],
  ['ssh', ['-o']],
  ['scp', ['-o', '-S']],
  ['sftp', ['-o', '-S']],
  ['less', []],
  ['vim', ['-c', '--cmd']],
  ['vi', ['-c', '--cmd']],
  ['nvim', ['-c', '--cmd']],
  ['man', ['-P', '--pager']],
]);

function optionValues(args: readonly ShellWord[], names: readonly string[]): ShellWord[] {
  const values: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    for (const name of names) {
      if (word.text === name && args[index + 1]) values.push(args[index + 1] as ShellWord);
      else if (word.text.startsWith(`${name}=`))
        values.push({ ...word, text: word.text.slice(name.length + 1) });
      else if (
        name.length === 2 &&
        !name.startsWith('--') &&
        word.text.startsWith(name) &&
        word.text.length > 2
      )
        values.push({ ...word, text: word.text.slice(2) });
    }
  }
  return values;
}

function commandOf(program: string, value: string): string | undefined {
  if (program === 'ssh' || program === 'scp' || program === 'sftp') {
    const match = /^(ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand)\s*[= ]\s*(.*)$/is.exec(value);
    return match ? (match[2] as string) : undefined;
  }
  if (program === 'tar' && value.startsWith('exec=')) return value.slice(5);
  // Any ex command can reach a shell (`r !cmd`, `call system()`): asked; `!cmd` is also parsed.
  if (program === 'vim' || program === 'vi' || program === 'nvim')
    return value.startsWith('!') ? value.slice(1) : '';
  return value;
}

/** Commands given as `+cmd` (vim ex commands, less commands with `!` shell escapes); `+42`, `+/pattern` are not. */
function plusCommands(program: string, args: readonly ShellWord[]): ShellWord[] {
  const vim = program === 'vim' || program === 'vi' || program === 'nvim';
  if (!vim && program !== 'less') return [];
  const out: ShellWord[] = [];
  for (const word of args) {
    if (!word.text.startsWith('+') || /^\+\d*$|^\+[/?]/.test(word.text)) continue;
    const value = word.text.slice(1);
    const bang = value.indexOf('!');
    if (vim) out.push({ ...word, text: commandOf(program, value) ?? '' });
    else if (bang >= 0 || word.dynamic) out.push({ ...word, text: bang >= 0 ? value.slice(bang + 1) : '' });
  }
  return out;
}

const GIT_CONFIG_VALUE_OPTIONS = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment']);

/** `git config [set] KEY VALUE` where KEY names a command git runs later (`core.pager`, `alias.x`). */
function gitConfigCommands(args: readonly ShellWord[]): ShellWord[] {
  const at = args.findIndex((word) => !word.dynamic && word.text === 'config');
  if (at < 0) return [];
  const operands: ShellWord[] = [];
  for (let index = at + 1; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (!word.dynamic && GIT_CONFIG_VALUE_OPTIONS.has(word.text)) index++;
    else if (word.dynamic || !word.text.startsWith('-')) operands.push(word);
  }
  if (operands[0]?.text === 'set') operands.shift();
  const [key, value] = operands;
  if (!key || !value) return [];
  if (!key.dynamic && !GIT_COMMAND_KEY.test(key.text)) return [];
  if (!key.dynamic && /^alias\./i.test(key.text) && !value.text.startsWith('!') && !value.dynamic) return [];
  return [{ ...value, text: value.text.replace(/^!/, '') }];
}

/**
 * Commands hidden in option values that a program runs itself: `git -c core.sshCommand=...`,
 * `git --upload-pack=...`, `ssh -o ProxyCommand=...`, `rsync -e ...`, `tar --to-command=...`.
 * They are parsed when static (so a deny rule still applies) and the line is always asked.
 */
export function inspectEmbeddedCommands(state: AnalysisState, scope: Scope, command: SimpleCommand): void {
  const scripts: ShellWord[] = [];
  if (command.name === 'git') {
    for (const value of optionValues(command.args, ['-c', '--config-env'])) {
      const equals = value.text.indexOf('=');
      const key = equals < 0 ? value.text : value.text.slice(0, equals);
      if (!GIT_COMMAND_KEY.test(key) && !value.dynamic) continue;
      const script = equals < 0 ? '' : value.text.slice(equals + 1);
      if (/^alias\./i.test(key) && !script.startsWith('!')) continue;
      scripts.push({ ...value, text: script.replace(/^!/, '') });
    }
    scripts.push(...gitConfigCommands(command.args));
  }
  scripts.push(...plusCommands(command.name, command.args));
  let options = COMMAND_OPTIONS.get(command.name);
  // `-u` is --upload-pack only for the commands that talk to a remote (`git log -u` is a patch).
  if (
    command.name === 'git' &&
    command.args.some((word) => /^(clone|fetch|pull|ls-remote|archive)$/.test(word.text))
  )
    options = [...(options ?? []), '-u'];
  if (options) {
    for (const value of optionValues(command.args, options)) {
      const script = commandOf(command.name, value.text);
      if (script !== undefined || value.dynamic) scripts.push({ ...value, text: script ?? '' });
    }
  }
  for (const script of scripts) {
    notUnderstood(state, `${command.name} runs a command given in an option`, command.text);
    if (!script.dynamic && script.text.trim() !== '') {
      state.nested.analyzeScript(
        state,
        { ...scope, depth: scope.depth + 1, via: [...scope.via, `${command.name} option`] },
        script.text,
        command.text,
      );
    }
  }
}
