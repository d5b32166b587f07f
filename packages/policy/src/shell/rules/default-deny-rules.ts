import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { parseOptions } from '../commands/option-parsing.js';
import { checkRsyncDevices } from '../file-writes/rsync-write-devices.js';
import { checkWrittenFiles } from '../file-writes/written-files.js';
import { normalizePath } from '../paths/paths.js';
import { judgeArgumentLists } from './argument-lists.js';
import { PARTITION_RULES } from './partition-rules.js';
import type { ArgumentRule, RuleVerdict } from './rule-verdict.js';
import { STORAGE_RULES } from './storage-rules.js';
import { SYSTEM_ROOT_RULES, extractionIntoDevices, judgeSystemRoots } from './system-root-rules.js';

const destructive = (reason: string): RuleVerdict => ({ category: 'destructive-file-operation', reason });
const disk = (reason: string): RuleVerdict => ({ category: 'disk-destruction', reason });
const system = (reason: string): RuleVerdict => ({ category: 'system-control', reason });
const reverse = (reason: string): RuleVerdict => ({ category: 'reverse-shell', reason });

/** A long option given by any unique prefix, as getopt_long accepts (`--rec` is `--recursive`). */
const hasLong = (long: ReadonlySet<string>, full: string, shortest: number): boolean =>
  [...long].some((given) => given.length >= shortest && full.startsWith(given));

/** UEFI firmware variables as Linux shows them. */
const EFI_VARIABLES = /^\/sys\/firmware\/efi\/(efivars|vars)\/./;

const RM: ArgumentRule = (args) => {
  const options = parseOptions(args);
  // rm's long options: force, interactive, one-file-system, (no-)preserve-root, recursive, dir, verbose.
  const recursive = options.short.has('r') || options.short.has('R') || hasLong(options.long, 'recursive', 1);
  const force = options.short.has('f') || hasLong(options.long, 'force', 1);
  if (hasLong(options.long, 'no-preserve-root', 1)) return destructive('rm --no-preserve-root');
  if (options.operands.some((operand) => EFI_VARIABLES.test(normalizePath(operand))))
    return system('rm of UEFI firmware variables (a machine whose boot variables are gone may not start)');
  return recursive && force ? destructive('rm with recursive and force flags (rm -rf)') : undefined;
};

const windowsFlags = (args: readonly string[]): Set<string> =>
  new Set(args.filter((arg) => /^[/-][a-zA-Z]$/.test(arg)).map((arg) => arg.slice(1).toLowerCase()));

const SYSTEM_CONTROL = new Set(['shutdown', 'reboot', 'poweroff', 'halt']);
const SYSTEMCTL_CONTROL = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot']);

/**
 * `fallocate -p`/`-z`/`-c`/`-i` (punch, zero, collapse or insert a range) on a device under /dev:
 * on a block device they discard or zero its blocks.
 */
function fallocateDevice(args: readonly string[]): RuleVerdict | undefined {
  const modes = args.some(
    (arg) =>
      /^-[A-Za-z]*[pzcid]/.test(arg.replace(/^-[lo](.*)$/, '')) ||
      /^--(punch-hole|zero-range|collapse-range|insert-range|dig-holes)$/.test(arg),
  );
  const file = args[args.length - 1];
  if (!modes || !file || !normalizePath(file).startsWith('/dev/')) return undefined;
  return disk(`fallocate changing ranges of ${normalizePath(file)} discards or zeroes its blocks`);
}

/**
 * The default deny rules of design document 002, by normalized command name in lower case
 * (cmd.exe and PowerShell ignore case, and so do macOS file systems: `RM` runs rm there).
 */
const RULES: ReadonlyMap<string, ArgumentRule> = new Map<string, ArgumentRule>([
  ['rm', RM],
  [
    'del',
    (args) =>
      windowsFlags(args).has('f') || windowsFlags(args).has('s') ? destructive('del /f or /s') : undefined,
  ],
  [
    'erase',
    (args) =>
      windowsFlags(args).has('f') || windowsFlags(args).has('s') ? destructive('erase /f or /s') : undefined,
  ],
  ['rmdir', (args) => (windowsFlags(args).has('s') ? destructive('rmdir /s') : undefined)],
  ['rd', (args) => (windowsFlags(args).has('s') ? destructive('rd /s') : undefined)],
  [
    'remove-item',
    (args) => {
      // PowerShell parameters are case-insensitive and may be shortened (`-r -fo`).
      const given = (full: string) =>
        args.some((arg) => {
          const option = /^-([a-z]+)$/i.exec(arg)?.[1]?.toLowerCase();
          return option !== undefined && full.startsWith(option);
        });
      return given('recurse') && given('force') ? destructive('Remove-Item -Recurse -Force') : undefined;
    },
  ],
  [
    'find',
    (args) => (args.includes('-delete') ? destructive('find -delete removes every match') : undefined),
  ],
  ['shred', () => destructive('shred destroys file contents')],
  [
    'dd',
    (args) => {
      if (args.some((arg) => arg.startsWith('if='))) return disk('dd if=');
      return args.some((arg) => arg.startsWith('of=/dev/'))
        ? disk('dd of=/dev/ writes to a device')
        : undefined;
    },
  ],
  ['wipefs', () => disk('wipefs erases file-system signatures')],
  ['mkswap', () => disk('mkswap overwrites a device')],
  ['blkdiscard', () => disk('blkdiscard discards every block of a device')],
  ['fallocate', fallocateDevice],
  ['shutdown', () => system('shutdown')],
  ['reboot', () => system('reboot')],
  ['poweroff', () => system('poweroff')],
  ['halt', () => system('halt')],
  ['init', (args) => (args[0] === '0' || args[0] === '6' ? system(`init ${args[0]}`) : undefined)],
  ['telinit', (args) => (args[0] === '0' || args[0] === '6' ? system(`telinit ${args[0]}`) : undefined)],
  [
    'systemctl',
    (args) => {
      const verb = parseOptions(args).operands[0];
      return verb !== undefined && SYSTEMCTL_CONTROL.has(verb) ? system(`systemctl ${verb}`) : undefined;
    },
  ],
  ['nc', (args) => netcatExec(args)],
  ['ncat', (args) => netcatExec(args)],
  ['netcat', (args) => netcatExec(args)],
  [
    'socat',
    (args) =>
      args.some((arg) => /(^|[,:!])(exec|system):/i.test(arg))
        ? reverse('socat running a program over a socket')
        : undefined,
  ],
]);

function netcatExec(args: readonly string[]): RuleVerdict | undefined {
  const options = parseOptions(args);
  return options.short.has('e') ||
    options.short.has('c') ||
    options.long.has('exec') ||
    options.long.has('sh-exec')
    ? reverse('netcat -e/-c runs a program over a socket')
    : undefined;
}

/** Names with a default rule, so dynamic arguments to them are asked rather than guessed. */
function hasRule(name: string): boolean {
  return (
    RULES.has(name) ||
    PARTITION_RULES.has(name) ||
    STORAGE_RULES.has(name) ||
    name.startsWith('mkfs') ||
    SYSTEM_CONTROL.has(name)
  );
}

const NETWORK_DEVICE = /\/dev\/(tcp|udp)\//;

/**
 * Applies the default deny rules to one effective command. Arguments decided at run time
 * (expansions, `xargs`, `find -exec {}`) make a command with a rule not understood.
 */
export function applyDefaultDenyRules(state: AnalysisState, command: SimpleCommand): void {
  for (const word of command.written) {
    if (NETWORK_DEVICE.test(word.text)) {
      report(state, 'deny', 'reverse-shell', 'opens a /dev/tcp or /dev/udp connection', command.text);
      return;
    }
  }
  // Files the command writes: rsync into devices, and the operands and options of writers.
  if (checkRsyncDevices(state, command) || checkWrittenFiles(state, command)) return;
  const name = command.name.toLowerCase();
  if (name.startsWith('mkfs') || name === 'mke2fs') {
    report(state, 'deny', 'disk-destruction', `${name} formats a device`, command.text);
    return;
  }
  const extracted =
    name === 'tar' || name === 'unzip'
      ? extractionIntoDevices(
          name,
          command.args.map((word) => word.text),
        )
      : undefined;
  if (extracted !== undefined)
    notUnderstood(state, `${name} extracts files the archive names into ${extracted}`, command.text);
  const roots = SYSTEM_ROOT_RULES.get(name);
  // `cd / && chmod -R 777 .`, `D=/usr; mv "$D" x`: placed and read with what the line set.
  if (roots && judgeSystemRoots(state, command, roots)) return;
  const rule = RULES.get(name) ?? PARTITION_RULES.get(name) ?? STORAGE_RULES.get(name) ?? roots;
  if (!rule) return;
  // `A=(-rf /); rm "${A[@]}"`: every argument list the words may give, each judged.
  if (judgeArgumentLists(state, command, rule)) return;
  const verdict = rule(
    command.args.map((word) => word.text),
    command,
  );
  if (verdict) {
    report(state, 'deny', verdict.category, verdict.reason, command.text);
    return;
  }
  if (hasRule(name) && (command.extraArgs || command.args.some((word) => word.dynamic))) {
    notUnderstood(state, `${name} with arguments decided at run time may match a deny rule`, command.text);
  }
}
