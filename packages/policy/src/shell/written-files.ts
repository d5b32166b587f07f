import type { SimpleCommand } from './analysis.js';
import { argumentLists } from './argument-lists.js';
import { globVerdict } from './glob-targets.js';
import { programOutputs } from './program-outputs.js';
import { type AnalysisState, notUnderstood, report } from './context.js';
import { descriptorOf } from './descriptors.js';
import { may, verdictOf, verdictOfFields } from './device-paths.js';
import { checkRsyncDevices } from './rsync-devices.js';
import { type ShellWord, literalPrefix, sliceWord, withText } from './shell-word.js';
import { normalizePath, placedReadings } from './working-directory.js';

/**
 * Judges one file a command line writes (by a redirect or by a command such as `tee`): a block
 * device, kernel memory or the SysRq trigger is denied; the SysRq setting, or a device or
 * kernel file named at run time, is asked. The word is also read with the values its variables
 * were given earlier in the line and in every directory a `cd` may have led to: denied when
 * every reading writes a device, asked when some do. Returns whether it was denied.
 */
export function judgeWrittenFile(state: AnalysisState, target: ShellWord, text: string): boolean {
  const placed = placedReadings(state.facts, target);
  // `/dev/fd/3`, `/dev/stdin`, also through `cd /dev` or a link: the file open on that
  // descriptor is opened again, for writing.
  for (const path of [target, ...(placed ?? []).flat()]) if (judgeDescriptor(state, path, text)) return true;
  // `tee /dev/*`, `cd /dev; tee [s]da`: bash writes every file the pattern matches.
  for (const path of [target, ...(placed ?? []).flat()]) {
    const globbed = globVerdict(path);
    if (globbed?.kind === 'deny') {
      report(state, 'deny', globbed.category, globbed.reason, text);
      return true;
    }
    if (globbed) notUnderstood(state, globbed.reason, text);
  }
  const direct = verdictOf(target);
  if (direct?.kind === 'deny') {
    report(state, 'deny', direct.category, direct.reason, text);
    return true;
  }
  const verdicts = (placed ?? []).map(verdictOfFields);
  const denied = verdicts.filter((verdict) => verdict?.kind === 'deny');
  const first = denied[0];
  if (first?.kind === 'deny' && denied.length === verdicts.length) {
    report(state, 'deny', first.category, first.reason, text);
    return true;
  }
  if (first?.kind === 'deny')
    notUnderstood(state, `${may(first.reason)} (a value or directory set earlier in the line)`, text);
  // Readings that are all known say every value the word may take: its run-time parts add nothing.
  const known = target.readings?.every((fields) => fields.every((field) => !field.dynamic)) === true;
  const asked = (known ? undefined : direct) ?? verdicts.find((verdict) => verdict?.kind === 'ask');
  if (asked) notUnderstood(state, asked.reason, text);
  return false;
}

/** A write to a descriptor opened earlier in the line, judged by the file it is open on. */
function judgeDescriptor(state: AnalysisState, path: ShellWord, text: string): boolean {
  const descriptor = descriptorOf(path);
  const opened = descriptor === undefined ? undefined : state.facts.descriptors.get(descriptor);
  if (!opened) return false;
  const through = `(${path.text} is descriptor ${descriptor}, opened earlier in the line)`;
  const verdicts = opened.map(verdictOf);
  const denied = verdicts.find((verdict) => verdict?.kind === 'deny');
  if (denied?.kind === 'deny' && verdicts.every((verdict) => verdict?.kind === 'deny')) {
    report(state, 'deny', denied.category, `${denied.reason} ${through}`, text);
    return true;
  }
  const asked = denied ? { reason: may(denied.reason) } : verdicts.find((verdict) => verdict !== undefined);
  if (asked) notUnderstood(state, `${asked.reason} ${through}`, text);
  return false;
}

/** How a program names the files it writes. */
interface WriterSpec {
  /** Which operands are written: every one (`tee`), the last of two or more (`cp`), the second (`xxd`). */
  readonly operands?: 'all' | 'last' | 'second';
  /** Short options whose value is a file the program writes (`curl -o`, `sort -o`). */
  readonly outputShort?: string;
  /** Long options whose value is a file the program writes; any prefix of three or more letters. */
  readonly outputLong?: readonly string[];
  /** Other short options that take a value, so a cluster such as `-sLo` is read right. */
  readonly shortWithValue?: string;
  /** Other long options that take a separate value. */
  readonly longWithValue?: readonly string[];
  /** `NAME=file` operands that name the output (`dd of=`). */
  readonly assignment?: string;
  /** `KEY=VALUE` operands write the file KEY names under this directory (`sysctl kernel.sysrq=1`). */
  readonly settings?: string;
  /** Outputs are written only in one of these modes (`tar -c`, `tar --append`); else they are read. */
  readonly modeShort?: string;
  readonly modeLong?: readonly string[];
  /** The first argument may be a cluster of option letters without a dash (`tar cf FILE`). */
  readonly oldStyle?: boolean;
  /** A target-directory option (`cp -t DIR`): the operands are then sources copied into it. */
  readonly targetShort?: string;
  readonly targetLong?: string;
}

const WRITERS: ReadonlyMap<string, WriterSpec> = new Map<string, WriterSpec>([
  ['tee', { operands: 'all' }],
  [
    'uniq',
    {
      operands: 'second',
      shortWithValue: 'fsw',
      longWithValue: ['skip-fields', 'skip-chars', 'check-chars'],
    },
  ],
  ['pv', { outputShort: 'o', outputLong: ['output'], shortWithValue: 'LBsiwHNDdPAFRx' }],
  // ddrescue refuses to write a device without -f.
  ['ddrescue', { operands: 'second', modeShort: 'f', modeLong: ['force'], shortWithValue: 'abceiKmosxZ' }],
  ['sponge', { operands: 'all' }],
  [
    'cp',
    {
      operands: 'last',
      shortWithValue: 'S',
      longWithValue: ['suffix'],
      targetShort: 't',
      targetLong: 'target-directory',
    },
  ],
  ['sysctl', { settings: '/proc/sys', shortWithValue: 'pr', longWithValue: ['load', 'pattern'] }],
  [
    'install',
    {
      operands: 'last',
      shortWithValue: 'gmoS',
      longWithValue: ['group', 'mode', 'owner', 'suffix', 'strip-program'],
      targetShort: 't',
      targetLong: 'target-directory',
    },
  ],
  ['xxd', { operands: 'second', shortWithValue: 'cglsonC' }],
  [
    'tar',
    {
      outputShort: 'f',
      outputLong: ['file'],
      shortWithValue: 'bCFgHIKLNTVX',
      longWithValue: [
        'directory',
        'files-from',
        'exclude-from',
        'blocking-factor',
        'to-command',
        'use-compress-program',
      ],
      modeShort: 'cruA',
      modeLong: ['create', 'append', 'update', 'catenate', 'concatenate', 'delete'],
      oldStyle: true,
    },
  ],
  ['dd', { assignment: 'of=' }],
  ['dcfldd', { assignment: 'of=' }],
  [
    'curl',
    {
      outputShort: 'oDc',
      outputLong: ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl'],
      shortWithValue: 'AbCdeEFHKmPQrTtuUwxXyYz',
    },
  ],
  [
    'wget',
    {
      outputShort: 'Ooa',
      outputLong: ['output-document', 'output-file', 'append-output'],
      shortWithValue: 'BDeiIlPQtTUwXAR',
    },
  ],
  [
    'sort',
    {
      outputShort: 'o',
      outputLong: ['output'],
      shortWithValue: 'ktST',
      longWithValue: ['key', 'field-separator', 'buffer-size', 'temporary-directory'],
    },
  ],
]);

const longMatches = (names: readonly string[] | undefined, given: string): boolean =>
  names?.some((name) => name === given || (given.length >= 3 && name.startsWith(given))) ?? false;

/** Where `dir/name` lands for a copy of `source` into the directory `dir`. */
const into = (dir: ShellWord, source: ShellWord): ShellWord =>
  withText(
    { ...dir, dynamic: dir.dynamic || source.dynamic },
    `${dir.text}/${source.text.slice(source.text.lastIndexOf('/') + 1)}`,
  );

/**
 * The files a command writes by its own arguments: `tee FILE...`, `cp SRC... DEST`,
 * `install SRC... DEST`, `xxd IN OUT`, `tar -cf FILE`, `dd of=FILE`, `curl -o FILE`,
 * `wget -O FILE`, `sort -o FILE`, `sysctl KEY=VALUE` (the file of
 * KEY under /proc/sys), `uniq IN OUT`, `pv -o FILE`, `ddrescue -f IN OUT`, and the shapes of
 * {@link programOutputs}. One linear pass over the words.
 */
export function writtenFiles(command: SimpleCommand): ShellWord[] {
  const own = programOutputs(command.name, command.args);
  if (own) return own;
  const spec = WRITERS.get(command.name);
  if (!spec) return [];
  const args = command.args;
  const outputs: ShellWord[] = [];
  const operands: ShellWord[] = [];
  let target: ShellWord | undefined;
  let optionsDone = false;
  let writing = spec.modeShort === undefined && spec.modeLong === undefined;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    // `tar cf FILE`: a first word without a dash is a cluster whose values follow in order.
    const oldStyle = spec.oldStyle === true && index === 0 && !word.dynamic && /^[a-zA-Z]+$/.test(word.text);
    const text = oldStyle ? `-${word.text}` : word.text;
    if (spec.assignment && text.startsWith(spec.assignment)) {
      outputs.push(sliceWord(word, spec.assignment.length));
      continue;
    }
    // `--output="$OUT"`, `-o"$OUT"`: an option whose value is known only at run time.
    const option = !word.dynamic || /^-[^-]|^--[^=]+=/.test(literalPrefix(word) ?? '');
    if (optionsDone || !option || text === '-' || !text.startsWith('-')) {
      operands.push(word);
      continue;
    }
    if (text === '--') {
      optionsDone = true;
      continue;
    }
    if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const name = text.slice(2, equals < 0 ? undefined : equals);
      if (longMatches(spec.modeLong, name)) writing = true;
      const isOutput = longMatches(spec.outputLong, name);
      const isTarget = spec.targetLong !== undefined && longMatches([spec.targetLong], name);
      const takesValue = isOutput || isTarget || longMatches(spec.longWithValue, name);
      const value = equals >= 0 ? sliceWord(word, equals + 1) : takesValue ? args[++index] : undefined;
      if (value && isOutput) outputs.push(value);
      if (value && isTarget) target = value;
      continue;
    }
    let next = index;
    for (let at = 1; at < text.length; at++) {
      const letter = text[at] as string;
      if (spec.modeShort?.includes(letter)) writing = true;
      const isOutput = spec.outputShort?.includes(letter) === true;
      const isTarget = spec.targetShort === letter;
      if (!isOutput && !isTarget && !spec.shortWithValue?.includes(letter)) continue;
      const attached = !oldStyle && (at + 1 < text.length || word.dynamic);
      const value = attached ? sliceWord(word, at + 1) : args[++next];
      if (value && isOutput) outputs.push(value);
      if (value && isTarget) target = value;
      if (attached || !oldStyle) break;
    }
    index = next;
  }
  if (!writing) return [];
  if (spec.settings) {
    for (const operand of operands) {
      const equals = operand.text.indexOf('=');
      if (operand.dynamic || equals < 0) continue;
      outputs.push(
        withText(operand, `${spec.settings}/${operand.text.slice(0, equals).trim().replace(/\./g, '/')}`),
      );
    }
  } else if (target) for (const source of operands) outputs.push(into(target, source));
  else if (spec.operands === 'all') outputs.push(...operands);
  else if (spec.operands === 'second' && operands[1]) outputs.push(operands[1]);
  else if (spec.operands === 'last' && operands.length >= 2) {
    const last = operands[operands.length - 1] as ShellWord;
    // `cp sda /dev` writes /dev/sda.
    if (!last.dynamic && normalizePath(last.text) === '/dev')
      for (const source of operands.slice(0, -1)) outputs.push(into(last, source));
    else outputs.push(last);
  }
  return outputs;
}

/** Judges the files a command writes by its arguments; returns whether one was denied. */
export function checkWrittenFiles(state: AnalysisState, command: SimpleCommand): boolean {
  if (checkRsyncDevices(state, command)) return true;
  const lists = argumentLists(command);
  if (lists === 'too-many')
    notUnderstood(state, 'words expand into more argument lists than are followed', command.text);
  if (lists === undefined || lists === 'too-many') {
    for (const file of writtenFiles(command)) if (judgeWrittenFile(state, file, command.text)) return true;
    return false;
  }
  // Each list on its own: the written operand depends on where the fields fall (`cp "${A[@]}"`).
  const outcomes = lists.map((args) => {
    const scratch: AnalysisState = { ...state, findings: [] };
    const denied = writtenFiles({ ...command, args }).some((file) =>
      judgeWrittenFile(scratch, file, command.text),
    );
    return { denied, findings: scratch.findings };
  });
  if (outcomes.every((outcome) => outcome.denied)) {
    state.findings.push(...(outcomes[0]?.findings ?? []));
    return true;
  }
  for (const { findings } of outcomes)
    for (const finding of findings)
      if (finding.kind === 'deny')
        notUnderstood(
          state,
          `${may(finding.reason)} (as the words expand with the values set earlier)`,
          command.text,
        );
      else state.findings.push(finding);
  return false;
}
