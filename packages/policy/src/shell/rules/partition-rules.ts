import { parseOptions } from '../commands/option-parsing.js';
import type { RuleVerdict } from './rule-verdict.js';

const disk = (reason: string): RuleVerdict => ({ category: 'disk-destruction', reason });

/**
 * sgdisk options that rewrite or destroy a partition table (printing, `-p`/`-i`/`-v`, and
 * saving a backup file, `-b`, only read): zap, clear, delete, new, type, sort, load a backup,
 * new GUIDs, move the second header, MBR/GPT conversions, names, order, replicate.
 */
const SGDISK_WRITES = {
  short: new Set(['Z', 'z', 'o', 'd', 'n', 't', 's', 'l', 'G', 'e', 'N', 'g', 'm', 'c', 'r', 'R']),
  long: new Set([
    'zap-all',
    'zap',
    'clear',
    'delete',
    'new',
    'typecode',
    'sort',
    'load-backup',
    'randomize-guids',
    'move-second-header',
    'largest-new',
    'mbrtogpt',
    'gpttombr',
    'hybrid',
    'change-name',
    'transpose',
    'replicate',
  ]),
};

/** sgdisk rewrites a partition table unless `--pretend` keeps every change in memory. */
function sgdiskWrite(args: readonly string[]): RuleVerdict | undefined {
  const options = parseOptions(args);
  if (options.short.has('P') || options.long.has('pretend')) return undefined;
  const long = [...options.long].find((option) => SGDISK_WRITES.long.has(option));
  const short = [...options.short].find((letter) => SGDISK_WRITES.short.has(letter));
  if (long === undefined && short === undefined) return undefined;
  return disk(`sgdisk ${long !== undefined ? `--${long}` : `-${short}`} rewrites a partition table`);
}

const SFDISK_READS = {
  short: ['l', 'd', 's', 'V', 'J', 'r', 'h', 'v', 'F'],
  long: [
    'list',
    'dump',
    'show-size',
    'verify',
    'json',
    'help',
    'version',
    'list-free',
    'list-types',
    'show-geometry',
    'no-act',
  ],
};

/** sfdisk writes the table it reads from its input unless it only lists, dumps or verifies. */
function sfdiskWrite(args: readonly string[]): RuleVerdict | undefined {
  const options = parseOptions(args);
  if (options.long.has('delete')) return disk('sfdisk --delete removes partitions');
  if (
    SFDISK_READS.short.some((letter) => options.short.has(letter)) ||
    SFDISK_READS.long.some((option) => options.long.has(option))
  )
    return undefined;
  return options.operands.some((operand) => operand.startsWith('/dev/'))
    ? disk('sfdisk writes the partition table it reads from its input')
    : undefined;
}

/** parted commands that change a disk; `print` and friends only read. */
const PARTED_WRITES = new Set([
  'mklabel',
  'mktable',
  'mkpart',
  'mkpartfs',
  'rm',
  'resizepart',
  'rescue',
  'mkfs',
  'move',
  'cp',
]);

function partedWrite(args: readonly string[]): RuleVerdict | undefined {
  const command = parseOptions(args)
    .operands.slice(1)
    .find((word) => PARTED_WRITES.has(word.toLowerCase()));
  return command === undefined ? undefined : disk(`parted ${command} changes a disk`);
}

/**
 * Default rules for the tools that rewrite partition tables or erase whole drives (design
 * document 002's disk destruction): sgdisk, sfdisk, parted, `nvme format`/`sanitize` and
 * hdparm's erasing options, each given the arguments after wrappers.
 */
export const PARTITION_RULES: ReadonlyMap<string, (args: readonly string[]) => RuleVerdict | undefined> =
  new Map<string, (args: readonly string[]) => RuleVerdict | undefined>([
    ['sgdisk', sgdiskWrite],
    ['sfdisk', sfdiskWrite],
    ['parted', partedWrite],
    [
      'nvme',
      (args) => {
        const verb = parseOptions(args).operands[0];
        return verb === 'format' || verb === 'sanitize' ? disk(`nvme ${verb} erases a drive`) : undefined;
      },
    ],
    [
      'hdparm',
      (args) => {
        const erase = args.find((arg) =>
          /^--(security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector)(=|$)/.test(
            arg,
          ),
        );
        return erase ? disk(`hdparm ${erase.split('=')[0]} destroys data on a drive`) : undefined;
      },
    ],
  ]);
