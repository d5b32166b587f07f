import type { RuleVerdict } from './rule-verdict.js';

const disk = (reason: string): RuleVerdict => ({ category: 'disk-destruction', reason });

/** Whether an option is given, as a long name (any prefix of 3 or more) or a letter in a cluster. */
const given = (args: readonly string[], long: string, short?: string): boolean =>
  args.some(
    (arg) =>
      (arg.startsWith('--') && arg.length >= 5 && `--${long}`.startsWith(arg.split('=')[0] as string)) ||
      (short !== undefined && /^-[^-]/.test(arg) && arg.slice(1).includes(short)),
  );

/** cryptsetup actions that destroy a device's data or its keys. */
const CRYPTSETUP_WIPES = new Set(['luksFormat', 'erase', 'luksErase', 'reencrypt', 'luksKillSlot']);
/** zpool commands that overwrite or destroy the disks of a pool. */
const ZPOOL_WIPES = new Set(['labelclear', 'create', 'destroy']);

/**
 * Default rules for tools that wipe storage or firmware (design document 002's disk
 * destruction), each given the arguments after wrappers: `badblocks -w`, `cryptsetup luksFormat`
 * (and `erase`, `luksErase`, `reencrypt`, `luksKillSlot`), `sg_format --format`, `zpool
 * labelclear`/`create`/`destroy`, `flashrom -w`/`-E`.
 */
export const STORAGE_RULES: ReadonlyMap<string, (args: readonly string[]) => RuleVerdict | undefined> =
  new Map([
    [
      'badblocks',
      (args) =>
        given(args, 'write-mode-test', 'w') ? disk('badblocks -w overwrites every block') : undefined,
    ],
    [
      'cryptsetup',
      (args) => {
        const action = args.find((arg) => CRYPTSETUP_WIPES.has(arg));
        return action ? disk(`cryptsetup ${action} destroys the data or keys of a device`) : undefined;
      },
    ],
    [
      'sg_format',
      (args) => (given(args, 'format', 'F') ? disk('sg_format --format formats a drive') : undefined),
    ],
    [
      'zpool',
      (args) => {
        const verb = args.find((arg) => !arg.startsWith('-'));
        return verb && ZPOOL_WIPES.has(verb) ? disk(`zpool ${verb} overwrites or destroys disks`) : undefined;
      },
    ],
    [
      'flashrom',
      (args) =>
        given(args, 'write', 'w') || given(args, 'erase', 'E')
          ? { category: 'system-control', reason: 'flashrom rewrites the firmware flash chip' }
          : undefined,
    ],
  ]);
