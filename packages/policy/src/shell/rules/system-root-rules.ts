import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { parseOptions } from '../commands/option-parsing.js';
import { globPattern } from '../file-writes/glob-targets.js';
import { inDirectory, normalizePath } from '../paths/paths.js';
import type { ShellWord } from '../words/shell-word.js';
import type { RuleVerdict } from './rule-verdict.js';

/**
 * The root and the directories the system runs from: changing the owner or mode of everything
 * under one (`chmod -R 777 /`, `chown -R user /usr`) or moving one away (`mv /usr /x`) leaves a
 * machine that no longer boots or lets anyone log in, as lasting as `rm -rf /`.
 */
const SYSTEM_ROOTS = new Set([
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/sbin',
  '/sys',
  '/usr',
  '/var',
]);

/** Most wildcards of an operand tried against the system roots (a bound on the work). */
const MAX_WILDCARDS = 16;

/** A root named by the operand, or matched by it as a pattern (`/*`, `/u*`: bash gives each match). */
function isSystemRoot(operand: string): boolean {
  if (!operand.startsWith('/')) return false;
  const path = normalizePath(operand).replace(/(.)\/+$/, '$1');
  if (SYSTEM_ROOTS.has(path)) return true;
  const wildcards = path.match(/[*?[]/g)?.length ?? 0;
  if (wildcards === 0 || wildcards > MAX_WILDCARDS) return false;
  const pattern = globPattern(path);
  return pattern !== undefined && [...SYSTEM_ROOTS].some((root) => root !== '/' && pattern.test(root));
}

/** `chmod -R`, `chown -R`, `chgrp -R` (or `--recursive`) over a system root. */
function recursiveOverRoot(name: string) {
  return (args: readonly string[]): RuleVerdict | undefined => {
    const options = parseOptions(args);
    if (!options.short.has('R') && !options.long.has('recursive')) return undefined;
    const root = options.operands.find(isSystemRoot);
    return root === undefined
      ? undefined
      : {
          category: 'destructive-file-operation',
          reason: `${name} -R over ${root} changes every file of the system (the machine may no longer boot)`,
        };
  };
}

/** `mv` of a system root (every operand but the last, or every one after `-t DIR`). */
function moveRoot(args: readonly string[]): RuleVerdict | undefined {
  // The directory of `-t DIR` is the target, not a source.
  const named = args.filter(
    (_, at) => at === 0 || !/^(-t|--target-directory|--target|--targ|--tar|--ta)$/.test(args[at - 1] ?? ''),
  );
  const options = parseOptions(named);
  const target = options.short.has('t') || [...options.long].some((option) => option.startsWith('ta'));
  const sources = target ? options.operands : options.operands.slice(0, -1);
  const root = sources.find(isSystemRoot);
  return root === undefined
    ? undefined
    : { category: 'destructive-file-operation', reason: `mv of ${root} takes a system directory away` };
}

/**
 * Default rules over the system's own directories, by command name. Unlike the other default
 * rules, an argument known only at run time leaves these commands as they are (`chmod +x "$f"`
 * is everyday work): only a root named in the line is denied.
 */
export const SYSTEM_ROOT_RULES: ReadonlyMap<string, (args: readonly string[]) => RuleVerdict | undefined> =
  new Map([
    ['chmod', recursiveOverRoot('chmod')],
    ['chown', recursiveOverRoot('chown')],
    ['chgrp', recursiveOverRoot('chgrp')],
    ['mv', moveRoot],
  ]);

/** Directories where files an archive names are devices or kernel files. */
const SPECIAL = /^\/+(dev|proc|sys)(\/|$)/;

/**
 * The directory `tar -x` (`-C DIR`, `--directory DIR`) or `unzip` (`-d DIR`) extracts into when it
 * is under /dev, /proc or /sys: the archive names the files written there (an existing device
 * node is replaced, or written with `--overwrite`), which the line does not show.
 */
export function extractionIntoDevices(name: string, args: readonly string[]): string | undefined {
  let directory: string | undefined;
  let extracting = name === 'unzip';
  for (const [at, arg] of args.entries()) {
    const next = args[at + 1];
    if (name === 'tar') {
      if (/^--(extract|get)$/.test(arg) || (at === 0 && /^[^-]*x/.test(arg)) || /^-[A-Za-z]*x/.test(arg))
        extracting = true;
      if (arg === '-C' || arg === '--directory') directory = next;
      else if (arg.startsWith('--directory=')) directory = arg.slice('--directory='.length);
      else if (/^-C./.test(arg)) directory = arg.slice(2);
      else if (/^-[A-Za-z]*C$/.test(arg)) directory = next;
    } else if (arg === '-d') directory = next;
    else if (/^-d./.test(arg)) directory = arg.slice(2);
  }
  if (!extracting || directory === undefined) return undefined;
  const path = normalizePath(directory);
  return SPECIAL.test(path) ? path : undefined;
}

/** Most argument lists (readings times working directories) judged by the rules above. */
const MAX_ROOT_LISTS = 64;

/**
 * The owner, group or mode word of chown, chgrp or chmod (its first operand, unless
 * `--reference` names a file instead): a name there is not a file, so it is not placed.
 */
function specIndex(name: string, args: readonly ShellWord[]): number {
  if (name === 'mv' || args.some((word) => word.text.startsWith('--ref'))) return -1;
  return args.findIndex((word) => !word.text.startsWith('-'));
}

/**
 * Judges a rule of {@link SYSTEM_ROOT_RULES} on every argument list the command may get: each
 * word read with the values set earlier in the line (`D=/usr; mv "$D" x`), each relative name
 * placed in each working directory the line may be in (`cd / && chmod -R 777 .`). Denied when
 * every list matches, asked when some do; true when it reported anything.
 */
export function judgeSystemRoots(
  state: AnalysisState,
  command: SimpleCommand,
  rule: (args: readonly string[]) => RuleVerdict | undefined,
): boolean {
  const spec = specIndex(command.name, command.args);
  let lists: ShellWord[][] = [[]];
  for (const word of command.args) {
    const readings = word.readings ?? [[word]];
    lists = lists.flatMap((list) => readings.map((fields) => [...list, ...fields]));
    if (lists.length > MAX_ROOT_LISTS) return false;
  }
  const verdicts: (RuleVerdict | undefined)[] = [];
  for (const directory of state.facts.directories)
    for (const list of lists) {
      if (list.some((word) => word.dynamic)) {
        verdicts.push(undefined);
        continue;
      }
      const placed = list.map((word, at) =>
        at === spec || word.text.startsWith('-') ? word.text : inDirectory(directory, word).text,
      );
      verdicts.push(rule(placed));
      if (verdicts.length > MAX_ROOT_LISTS) return false;
    }
  const first = verdicts.find((verdict) => verdict !== undefined);
  if (!first) return false;
  if (verdicts.every((verdict) => verdict !== undefined))
    report(state, 'deny', first.category, first.reason, command.text);
  else notUnderstood(state, `some expansions of its words match: ${first.reason}`, command.text);
  return true;
}
