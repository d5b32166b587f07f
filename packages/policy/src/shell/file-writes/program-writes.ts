import type { SimpleCommand } from '../command-line-analysis.js';
import { findOutputs } from '../commands/find.js';
import { normalizePath } from '../paths/paths.js';
import { type ShellWord, literalPrefix, sliceWord, withText } from '../words/shell-word.js';

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

/** socat addresses that open a file: `FILE:`, `OPEN:`, `GOPEN:`, `CREATE:`/`CREAT:` and the path up to a `,`. */
const SOCAT_FILE = /^(?:file|open|gopen|creat|create):/i;

function socatOutputs(args: readonly ShellWord[]): ShellWord[] {
  const addresses = args.filter((word) => !word.text.startsWith('-') || word.text === '-');
  // `-u` copies the first address into the second only, `-U` the second into the first.
  const only = args.some((word) => word.text === '-u') ? 1 : args.some((word) => word.text === '-U') ? 0 : -1;
  const outputs: ShellWord[] = [];
  addresses.forEach((word, at) => {
    if (only >= 0 && at !== only) return;
    const prefix = SOCAT_FILE.exec(word.text)?.[0];
    if (!prefix || word.dynamic) return;
    const path = sliceWord(word, prefix.length);
    const comma = path.text.indexOf(',');
    outputs.push(comma < 0 ? path : { ...path, text: path.text.slice(0, comma) });
  });
  return outputs;
}

/** `openssl CMD -out FILE` (also `-keyout`): options with one dash and a separate value. */
function opensslOutputs(args: readonly ShellWord[]): ShellWord[] {
  const outputs: ShellWord[] = [];
  args.forEach((word, at) => {
    const next = args[at + 1];
    if (next && !word.dynamic && (word.text === '-out' || word.text === '-keyout')) outputs.push(next);
  });
  return outputs;
}

/**
 * The files a program writes that its options name in a shape of its own (not getopt's):
 * `find -fprint FILE`, `openssl ... -out FILE`, `socat ... FILE:PATH`; undefined for others.
 */
function programOutputs(name: string, args: readonly ShellWord[]): ShellWord[] | undefined {
  if (name === 'find') return findOutputs(args);
  if (name === 'openssl') return opensslOutputs(args);
  if (name === 'socat') return socatOutputs(args);
  return undefined;
}

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
