// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Gaps a second sweep noticed and left, and hostile inputs next to them: kernel memory and other
 * raw storage written like a disk, rsync writing into devices, wrappers that change a command's
 * directory or environment, defaults, files find and xargs name at run time, and commands ssh
 * runs elsewhere. Each line is judged in bypass mode under generous allow rules, where anything
 * that is neither denied nor asked runs; the near misses must stay allowed in the default mode.
 */
const { expectVerdict, allowedInDefault, runsInBypass } = deviceWritePolicy('left-2');

describe('kernel memory and I/O ports written as files', () => {
  const MEMORY = /^system-control: writes to \/dev\/(mem|kmem|port)/;
  it.each<Case>([
    ['echo x > /dev/mem', 'deny', MEMORY],
    ['printf x >> /dev/kmem', 'deny', MEMORY],
    ['echo x > /dev/port', 'deny', MEMORY],
    ['cat blob | tee /dev/mem', 'deny', MEMORY],
    ['cat blob | sudo tee //dev/./kmem', 'deny', MEMORY],
    ['cp blob /dev/mem', 'deny', MEMORY],
    ['dd of=/dev/mem bs=1 seek=4096 < blob', 'deny', MEMORY],
    ['sponge /dev/port < blob', 'deny', MEMORY],
    ['echo x 1<>/dev/mem', 'deny', MEMORY],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'cat /dev/mem > /dev/null',
    'cp /dev/mem memory.img',
    'echo x | tee memory.txt',
    'echo x | tee /dev/stdout',
    'echo x > /dev/stderr',
    'echo x > /dev/null',
    'cat /dev/port | tee ports.txt',
  ])('%j stays allowed', allowedInDefault);

  it.each(['echo x > /dev/tty', 'echo x > memory.txt', 'echo x > /dev/shm/scratch'])(
    '%j is a plain file write (runs in bypass mode)',
    runsInBypass,
  );
});

describe('rsync writing into devices', () => {
  const DISK = /^disk-destruction: /;
  it.each<Case>([
    ['rsync --write-devices disk.img /dev/sda', 'deny', /writes to the block device \/dev\/sda/],
    ['sudo rsync --inplace --write-devices disk.img /dev/nvme0n1', 'deny', DISK],
    ['rsync --copy-devices --write-devices /dev/sda /dev/sdb', 'deny', /block device \/dev\/sdb/],
    ['rsync -a --write-devices disk.img root@host:/dev/sda', 'deny', DISK],
    ['rsync disk.img /dev/sda --write-devices', 'deny', DISK],
    ['rsync -a --write-devices images/ /dev/', 'deny', /device files under \/dev/],
    ['rsync -a --write-devices backup/ /', 'deny', /device files under \//],
    ['rsync --write-devices blob /dev/mem', 'deny', /^system-control: writes to \/dev\/mem/],
    [
      'rsync --write-devices disk.img "$TARGET"',
      'ask',
      /rsync --write-devices into a destination named at run time/,
    ],
    ['rsync --write-devices disk.img /dev/$DISK', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'rsync --copy-devices /dev/sda backup/sda.img',
    'rsync -a --copy-devices /dev/nvme0n1 host:backups/',
    'rsync --write-devices disk.img backup/disk.img',
    'rsync -a src/ dest/',
    'rsync -a "$SRC" dest/',
  ])('%j stays allowed', allowedInDefault);
});

describe('more hostile inputs next to them', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    // wrappers that change the directory or the environment of the command they run
    ['env -C /dev tee sda < x', 'deny', DISK],
    ['env --chdir=/dev tee sda < x', 'deny', DISK],
    ['env --chdir /dev cp x sda', 'deny', DISK],
    ['sudo -D /dev tee sda < x', 'deny', DISK],
    ['sudo --chdir=/dev cp x sda', 'deny', DISK],
    ['env OUT=/dev/sda sh -c \'tee "$OUT"\' < x', 'deny', DISK],
    ['env -u X OUT=/dev/sda sh -c \'cp x "$OUT"\'', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each<Case>([
    // more raw storage: flash, compressed RAM, floppies, tapes, SCSI generic, UBI, caches
    ['echo x > /dev/mtd0', 'deny', /^disk-destruction: writes to the block device \/dev\/mtd0/],
    ['cp firmware.bin /dev/mtdblock0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/zram0', 'deny', /^disk-destruction: /],
    ['tee /dev/fd0 < floppy.img', 'deny', /^disk-destruction: /],
    ['tee /dev/sg0 < x', 'deny', /^disk-destruction: /],
    ['tee /dev/nst0 < backup.tar', 'deny', /^disk-destruction: /],
    ['echo x > /dev/st0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/ubi0_0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/bcache0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/drbd1', 'deny', /^disk-destruction: /],
    ['echo x > /dev/ram0', 'deny', /^disk-destruction: /],
    // the hardware watchdog reboots a machine nobody feeds; MSRs and NVRAM change the hardware
    ['echo x > /dev/watchdog', 'deny', /^system-control: writes to \/dev\/watchdog/],
    ['echo x > /dev/watchdog1', 'deny', /^system-control: /],
    ['cp regs.bin /dev/cpu/0/msr', 'deny', /^system-control: writes to \/dev\/cpu\/0\/msr/],
    ['cat cmos.bin > /dev/nvram', 'deny', /^system-control: /],
    // a default value is used when the variable is empty or unset
    ['tee "${OUT:-/dev/sda}" < x', 'ask', /may write to the block device \/dev\/sda/],
    ['echo x > "${OUT:=/dev/sda}"', 'ask', /may write to the block device \/dev\/sda/],
    ['cp x ${OUT-"/dev/$DISK"}', 'ask', /named at run time/],
    ['OUT=/dev/sdb; tee "${OUT:-/dev/sda}" < x', 'deny', /^disk-destruction: writes to the block device/],
    // sysfs files that stop the machine or pull a disk out from under it
    ['echo mem > /sys/power/state', 'deny', /^system-control: writes to \/sys\/power\/state/],
    ['echo 1 > /sys/block/sda/device/delete', 'deny', /^system-control: .*removes the device/],
    [
      'cd /sys/bus/pci/devices/0000:00:1f.2 && echo 1 > remove',
      'deny',
      /^system-control: .*removes the device/,
    ],
    ['echo 1 | sudo tee /sys/class/scsi_device/0:0:0:0/device/delete', 'deny', /^system-control: /],
    ['echo 1 > /sys/block/$DISK/device/delete', 'ask', /named at run time/],
    // a logical volume is named /dev/VG/LV, with any volume group name
    ['echo x > /dev/ubuntu-vg/root', 'ask', /may be a logical volume/],
    ['cd /dev/vg0 && tee home < x', 'ask', /may be a logical volume/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'env -C /tmp tee sda < x',
    'env -C /dev ls -l sda',
    'sudo -D /dev ls sda',
    'env -C /dev true; tee sda < x',
    'env OUT=/dev/sda true; tee "$OUT" < x',
    'env OUT=/dev/sda tee "$OUT" < x',
    'tee "${OUT:-out.img}" < x',
    'cp x "${DEST:-backup}/"',
  ])('%j stays allowed', allowedInDefault);

  it.each([
    'echo x > /dev/shm/scratch',
    'echo x > /dev/pts/0',
    'echo x > /dev/fd/1',
    'echo x > /dev/stdout',
    'echo x > /dev/zero',
    'echo x > /dev/urandom',
    'echo x > /dev/tty',
    'echo x > /dev/stdin',
    'echo x > /dev/fdisk.txt',
    'echo x > /dev/status.log',
    'cat /dev/watchdog0 > /dev/null',
    'cat /sys/power/state > /dev/null',
    'echo x > remove',
    'echo 1 > /sys/class/leds/input0::capslock/brightness',
  ])('%j is not a device write (runs in bypass mode)', runsInBypass);
});

describe('device targets named by find and xargs at run time', () => {
  const RUN_TIME = /device or kernel file named at run time/;
  it.each<Case>([
    ['find /dev -name sda -exec tee {} \\; < x', 'ask', RUN_TIME],
    ["find /dev/disk -type l -exec cp img '{}' ';'", 'ask', RUN_TIME],
    ['find / -name sda -exec tee {} +', 'ask', RUN_TIME],
    ['cd /dev && find . -name sda -exec cp img {} \\;', 'ask', RUN_TIME],
    ['find /dev -name sda -execdir tee {} \\; < x', 'ask', RUN_TIME],
    ['find /dev -name sda -exec dd of={} \\; < x', 'ask', /./],
    ['ls | xargs -I{} tee /dev/{} < x', 'ask', RUN_TIME],
    ['ls | xargs -I DISK cp img /dev/DISK', 'ask', RUN_TIME],
    ['ls | xargs --replace=@ tee /dev/@', 'ask', RUN_TIME],
    ['ls | xargs -i tee /dev/{}', 'ask', RUN_TIME],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'find . -name "*.txt" -exec cp {} backup/ \\;',
    'find src -name "*.log" -exec tee -a {} \\; < x',
    'find /dev -name sda -exec ls -l {} \\;',
    'ls | xargs -I{} cp {} backup/',
    'ls | xargs -I{} tee notes/{} < x',
    'ls | xargs cp -t backup',
  ])('%j stays allowed', allowedInDefault);
});

describe('device writes run on another machine by ssh', () => {
  it.each<Case>([
    [
      "cat disk.img | ssh host 'dd of=/dev/sda'",
      'deny',
      /^disk-destruction: writes to the block device \/dev\/sda/,
    ],
    ['cat disk.img | ssh -p 2222 -i key root@host tee /dev/sda', 'deny', /^disk-destruction: /],
    ["ssh -o BatchMode=yes host 'cd /dev && cat > sda' < disk.img", 'deny', /^disk-destruction: /],
    ["ssh host -- 'echo b > /proc/sysrq-trigger'", 'deny', /^system-control: /],
    ["ssh host 'rm -rf /'", 'deny', /^destructive-file-operation: /],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'ssh host uptime',
    "ssh -p 2222 host 'cd /srv && git pull'",
    'ssh host',
    'ssh -N -L 8080:localhost:80 host',
    "ssh host 'ls -l /dev/sda'",
    'ssh -s host sftp',
  ])('%j stays allowed: allow rules still match ssh itself', allowedInDefault);
});
