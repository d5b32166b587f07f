import { normalizePath } from '../paths/paths.js';
import type { ShellWord } from '../words/shell-word.js';

/**
 * Raw disks and partitions: a write to one destroys a file system. Linux (`sda`, `nvme0n1`,
 * `mmcblk0`, `dm-0`, LVM and RAID nodes, `/dev/block/8:0`, flash `mtd0`, compressed RAM `zram0`,
 * floppies `fd0`, tapes `st0`/`nst0`, SCSI generic `sg0`, UBI, bcache, DRBD, RAM disks) and
 * macOS (`disk2`, `rdisk2`).
 */
const BLOCK_DEVICE =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|r?disk|mapper\/|md([0-9]|\/)|loop|dm-|nbd|zd|rbd|block\/|pmem|root$|(mtd(block)?|zram|fd|sg|n?st|ubi(block)?|bcache|drbd|ram)[0-9])/;

/**
 * Physical memory, kernel virtual memory and I/O ports: a write changes the running kernel or
 * the hardware under it (a crash, silent corruption, a hung bus).
 */
const KERNEL_MEMORY = /^\/dev\/(mem|kmem|port)$/;

/** Other files whose writing acts on the machine at once, with what it does. */
const MACHINE_FILES: readonly (readonly [RegExp, string])[] = [
  [/^\/dev\/watchdog[0-9]*$/, 'which arms the hardware watchdog: the machine reboots when nothing feeds it'],
  [
    /^\/dev\/cpu\/[0-9]+\/msr$/,
    "a model-specific register of the processor (clocks, voltages, the kernel's entry points)",
  ],
  [/^\/dev\/nvram$/, "the firmware's settings memory (a bad write can leave the machine unable to boot)"],
  [/^\/sys\/power\/state$/, 'which suspends or hibernates the machine at once'],
  [
    /^\/sys\/firmware\/efi\/(efivars|vars)\/./,
    'a UEFI firmware variable (boot entries, Secure Boot keys: a bad one can leave the machine unable to start)',
  ],
  [
    /^\/sys\/(block|bus|class|devices)\/.+\/(delete|remove)$/,
    'which removes the device from the running system (a disk disappears under its file systems)',
  ],
];

/**
 * Directories under /dev that hold no volumes. A write to `/dev/DIR/NAME` elsewhere may be one
 * into a logical volume (`/dev/VG/LV`, any volume group name): asked.
 */
const NOT_VOLUMES = new Set([
  'shm',
  'pts',
  'fd',
  'mqueue',
  'hugepages',
  'input',
  'snd',
  'dri',
  'net',
  'bus',
  'char',
  'cpu',
  'usb',
  'serial',
  'v4l',
  'vfio',
  'dma_heap',
  'hidraw',
  'virtio-ports',
  'infiniband',
]);

/** Any write to it makes the kernel act at once: `b` reboots, `c` crashes, `o` powers off. */
const SYSRQ_TRIGGER = '/proc/sysrq-trigger';
/** The `kernel.sysrq` setting: which SysRq functions the keyboard may trigger. */
const SYSRQ_SETTING = '/proc/sys/kernel/sysrq';

/** What writing one path means: denied, asked (with the reason), or nothing special. */
export type WriteVerdict =
  | {
      readonly kind: 'deny';
      readonly category: 'disk-destruction' | 'system-control';
      readonly reason: string;
    }
  | { readonly kind: 'ask'; readonly reason: string }
  | undefined;

/**
 * What writing the file a word names does: a block device, kernel memory, the watchdog or the
 * SysRq trigger is denied; the SysRq setting, a possible logical volume, a device named at run
 * time or `../../dev/sda` is asked.
 */
export function verdictOf(target: ShellWord): WriteVerdict {
  const path = normalizePath(target.text);
  if (target.dynamic) {
    // The known text of the word: a prefix (`/dev/$DISK`) or brace alternatives (`{/dev/sda,x}`).
    if (/(^|[{,])\/+(dev|proc|sys)(\/|$)/.test(path) || /(^|[{,])\/+(dev|proc|sys)\//.test(target.text))
      return {
        kind: 'ask',
        reason: `writes to a device or kernel file named at run time (${target.text}...)`,
      };
    return undefined;
  }
  if (BLOCK_DEVICE.test(path))
    return { kind: 'deny', category: 'disk-destruction', reason: `writes to the block device ${path}` };
  if (KERNEL_MEMORY.test(path))
    return {
      kind: 'deny',
      category: 'system-control',
      reason: `writes to ${path}, the machine's memory or I/O ports, which corrupts or crashes the running kernel`,
    };
  for (const [pattern, effect] of MACHINE_FILES)
    if (pattern.test(path))
      return { kind: 'deny', category: 'system-control', reason: `writes to ${path}, ${effect}` };
  if (path === SYSRQ_TRIGGER)
    return {
      kind: 'deny',
      category: 'system-control',
      reason: `writes to ${SYSRQ_TRIGGER}, which reboots, crashes or powers off the machine at once`,
    };
  if (path === SYSRQ_SETTING)
    return {
      kind: 'ask',
      reason: 'changes the magic SysRq key (kernel.sysrq), which can reboot the machine',
    };
  const volume = /^\/dev\/([^/]+)\/[^/]+$/.exec(path);
  if (volume && !NOT_VOLUMES.has(volume[1] as string))
    return { kind: 'ask', reason: `writes to ${path}, which may be a logical volume (/dev/VG/LV)` };
  // `~root/../dev/sda`, `~/../../dev/sda`: /dev/sda from a home directory few enough levels deep.
  const home = /^~[^/]*\/(.*)$/s.exec(target.text)?.[1];
  const fromHome = home === undefined ? undefined : normalizePath(home);
  if (fromHome?.startsWith('../')) {
    const fromRoot = verdictOf({ ...target, text: `/${fromHome.replace(/^(\.\.\/)+/, '')}` });
    if (fromRoot?.kind === 'deny')
      return { kind: 'ask', reason: `${may(fromRoot.reason)}, depending on the home directory` };
  }
  // `../../../dev/sda` is /dev/sda from a directory few enough levels deep.
  const climbed = /^(\.\.\/)+/.exec(path)?.[0];
  if (climbed) {
    const fromRoot = verdictOf({ ...target, text: `/${path.slice(climbed.length)}` });
    if (fromRoot?.kind === 'deny')
      return { kind: 'ask', reason: `${may(fromRoot.reason)}, depending on the working directory` };
  }
  return undefined;
}

export const may = (reason: string): string => `may ${reason.replace(/^writes/, 'write')}`;

/** The first denial among the fields of one reading, else the first question. */
export function verdictOfFields(fields: readonly ShellWord[]): WriteVerdict {
  const verdicts = fields.map(verdictOf);
  return (
    verdicts.find((verdict) => verdict?.kind === 'deny') ?? verdicts.find((verdict) => verdict !== undefined)
  );
}
