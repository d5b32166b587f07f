// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import {
  type Case,
  bash,
  call,
  deviceWritePolicy,
  writerPolicy,
  WIDE_WRITERS,
  OWNER_AND_MOVE_COMMANDS,
} from '../helpers.js';

/**
 * Which written paths are devices or kernel files: raw disks and other storage, kernel memory
 * and I/O ports, the watchdog and firmware settings, sysfs files that stop the machine or remove
 * a disk, the magic SysRq trigger, UEFI variables, and the same paths spelled other ways (through
 * /proc, from a home directory, as a file-name pattern).
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const writers = writerPolicy('device-paths-writers');
const wide = writerPolicy('device-paths-wide', WIDE_WRITERS);
const devices = deviceWritePolicy('device-paths');
const firmware = deviceWritePolicy('device-paths-firmware', OWNER_AND_MOVE_COMMANDS);

describe('block devices written by a command, as by a redirect', () => {
  const DISK = /^disk-destruction: writes to the block device/;
  it.each<Case>([
    ['tee /dev/sda', 'deny', DISK],
    ['tee -a /dev/nvme0n1', 'deny', DISK],
    ['echo x | tee out.log /dev/sdb1', 'deny', DISK],
    ['tee --append -- /dev/vda', 'deny', DISK],
    ['cat x | sudo tee /dev/sdb', 'deny', DISK],
    ['cat x | sudo tee /dev/sdb > /dev/null', 'deny', DISK],
    ['cp x /dev/sda', 'deny', DISK],
    ['cp -f disk.img /dev/mmcblk0', 'deny', DISK],
    ['sudo cp disk.img /dev/disk2', 'deny', DISK],
    ['cp disk.img /dev/rdisk2', 'deny', DISK],
    ['cp sda /dev', 'deny', DISK],
    ['cp -t /dev/ sda', 'deny', DISK],
    ['cp --target-directory=/dev sdb', 'deny', DISK],
    ['tee /dev/sd?', 'deny', DISK],
    ['sponge /dev/sda', 'deny', DISK],
    ['curl -sLo /dev/sda https://example.test/image', 'deny', DISK],
    ['curl --output /dev/sda https://example.test/image', 'deny', DISK],
    ['wget -O /dev/sda https://example.test/image', 'deny', DISK],
    ['wget --output-document=/dev/sda https://example.test/image', 'deny', DISK],
    ['sort -o /dev/sda list.txt', 'deny', DISK],
    ['dd of=/dev/vda', 'deny', DISK],
    ['dd bs=4M of=/dev/sda status=progress', 'deny', DISK],
    ['cat image | dd of=/dev/nvme0n1p1', 'deny', DISK],
    // other spellings of the same device path, for commands and redirects alike
    ['tee //dev/sda', 'deny', DISK],
    ['tee /dev/./sda', 'deny', DISK],
    ['cp x /dev/../dev/sda', 'deny', DISK],
    ['echo x > //dev/sda', 'deny', DISK],
    ['echo x > /dev/./nvme0n1', 'deny', DISK],
    ['echo x > /dev/dm-0', 'deny', DISK],
    ['echo x > /dev/block/8:0', 'deny', DISK],
    // a device named at run time
    ['tee /dev/$DISK', 'ask', /device or kernel file named at run time/],
    ['cp x "/dev/${DISK}"', 'ask', /device or kernel file named at run time/],
    ['echo x > /dev/$DISK', 'ask', /device or kernel file named at run time/],
    // brace expansion gives the device itself (brace-expansion.test.ts)
    ['tee {/dev/sda,notes.txt}', 'deny', DISK],
    ['cp x {,/dev/sda}', 'deny', DISK],
  ])('%j is %s', async (...entry) => writers.expectVerdict(entry));

  it.each([
    'tee out.txt',
    'echo hi | tee -a notes.txt',
    'echo hi | tee /dev/null',
    'echo hi | tee /dev/stderr',
    'cp /dev/sda backup.img',
    'cp notes.txt devices.txt',
    'cp -t backup /dev/sda',
    'cp -S .orig notes.txt /tmp/notes.txt',
    'cat /dev/sda > /dev/null',
    'curl -o page.html https://example.test/',
    'sort -o sorted.txt list.txt',
    'ls /dev/sda',
    'echo /dev/sda',
  ])('%j stays allowed', writers.allowedInDefault);
});

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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'cat /dev/mem > /dev/null',
    'cp /dev/mem memory.img',
    'echo x | tee memory.txt',
    'echo x | tee /dev/stdout',
    'echo x > /dev/stderr',
    'echo x > /dev/null',
    'cat /dev/port | tee ports.txt',
  ])('%j stays allowed', devices.allowedInDefault);

  it.each(['echo x > /dev/tty', 'echo x > memory.txt', 'echo x > /dev/shm/scratch'])(
    '%j is a plain file write (runs in bypass mode)',
    devices.runsInBypass,
  );
});

describe('other raw storage, hardware and sysfs files', () => {
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

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
  ])('%j is not a device write (runs in bypass mode)', devices.runsInBypass);
});

describe('the magic SysRq trigger', () => {
  const TRIGGER = /^system-control: writes to \/proc\/sysrq-trigger/;
  const ENABLE = /magic SysRq key/;
  it.each<Case>([
    ['echo b > /proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo o >/proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo c | tee /proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo c | sudo tee /proc/sysrq-trigger', 'deny', TRIGGER],
    ["sudo sh -c 'echo b > /proc/sysrq-trigger'", 'deny', TRIGGER],
    ['printf b | dd of=/proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo b > /proc//sysrq-trigger', 'deny', TRIGGER],
    ['echo b > /proc/self/../sysrq-trigger', 'deny', TRIGGER],
    ['echo b >> /proc/sysrq-trigger', 'deny', TRIGGER],
    ['sysctl kernel.sysrq=1', 'ask', ENABLE],
    ['sysctl -w kernel.sysrq=1', 'ask', ENABLE],
    ['sysctl -w kernel/sysrq=176', 'ask', ENABLE],
    ['sudo sysctl --write kernel.sysrq=1', 'ask', ENABLE],
    ["sysctl -w 'kernel.sysrq = 1'", 'ask', ENABLE],
    ['echo 1 > /proc/sys/kernel/sysrq', 'ask', ENABLE],
    ['echo 1 | tee /proc/sys/kernel/sysrq', 'ask', ENABLE],
    ['echo b > /proc/$TARGET', 'ask', /kernel file named at run time/],
  ])('%j is %s', async (...entry) => writers.expectVerdict(entry));

  it('a redirect of the same text into a file of the workspace runs in accept-edits mode', async () => {
    const decision = await writers.policy.check(
      call(bash, { command: 'echo b > notes.txt' }, { mode: 'accept-edits' }),
    );
    expect(decision.decision, decision.reason).toBe('allow');
  });

  it.each([
    'echo b | tee notes.txt',
    'echo b | tee sysrq-trigger.txt',
    'cat /proc/sysrq-trigger',
    'cat /proc/sys/kernel/sysrq',
    'sysctl kernel.sysrq',
    'sysctl -n kernel.sysrq',
    'sysctl -a',
  ])('%j stays allowed', writers.allowedInDefault);
});

describe('UEFI firmware variables', () => {
  const EFI = /^system-control: (writes to \/sys\/firmware\/efi\/(efi)?vars\/|rm of UEFI firmware variables)/;
  it.each<Case>([
    ['echo x > /sys/firmware/efi/efivars/Boot0000-8be4df61-93ca-11d2-aa0d-00e098032b8c', 'deny', EFI],
    ['cat name > /sys/firmware/efi/vars/del_var', 'deny', EFI],
    ['tee /sys/firmware/efi/efivars/* < x', 'deny', EFI],
    ['rm -f /sys/firmware/efi/efivars/*', 'deny', EFI],
    ['rm /sys//firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c', 'deny', EFI],
  ])('%j is %s', async (...entry) => firmware.expectVerdict(entry));

  it.each(['ls /sys/firmware/efi/efivars', 'cp /sys/firmware/efi/efivars/BootOrder-x order.bin'])(
    '%j stays allowed',
    firmware.allowedInDefault,
  );
});

describe('redirections that open a file for reading and writing', () => {
  it.each<Case>([
    // `<>` opens for reading and writing; the grammar does not know it and leaves an error node
    ['echo b 1<>/proc/sysrq-trigger', 'deny', /^system-control/],
    // read by the grammar as `<` then `>/dev/sda`: it opens the device for writing all the same
    ['echo b <>/dev/sda', 'deny', /^disk-destruction/],
    ['echo b 1<>notes.txt', 'ask', /does not parse/],
  ])('%j is %s', async (...entry) => wide.expectVerdict(entry));
});

describe('paths through /proc/PID/root', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    ['tee /proc/self/root/dev/sda < img', 'deny', DISK],
    ['cp img /proc/1/root/dev/sda', 'deny', DISK],
    ['echo x > /proc/thread-self/root/proc/self/root/dev/sda', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['cat /proc/self/root/dev/sda'])('%j runs in bypass mode', devices.runsInBypass);
});

describe('device paths reached from a home directory', () => {
  it.each<Case>([
    ['tee ~root/../dev/sda < img', 'ask', /depending on the home directory/],
    ['cp img ~/../../dev/sda', 'ask', /depending on the home directory/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['tee ~/notes.txt < img', 'cp img ~root/../tmp/x', "tee '~root'/x < img"])(
    '%j runs in bypass mode',
    devices.runsInBypass,
  );
});

describe('file-name patterns in a written target', () => {
  // bash writes every file the pattern matches (a pattern that matches nothing stays literal).
  const MATCHES = /^disk-destruction: writes to the block device \/dev\/sda \(the pattern/;
  it.each<Case>([
    ['tee /dev/* < img', 'deny', MATCHES],
    ['tee /dev/?da < img', 'deny', MATCHES],
    ['tee /dev/[s]da < img', 'deny', MATCHES],
    ['tee /d[e]v/sda < img', 'deny', MATCHES],
    ['tee /*/sda < img', 'deny', MATCHES],
    ['cd /dev; tee [s]da < img', 'deny', MATCHES],
    ['cp img /dev/s[!x]a', 'deny', MATCHES],
    ['echo x > /proc/sysrq-trig*', 'deny', /^system-control: /],
    ['tee /dev/tty[0-9] < img', 'ask', /pattern names under \/dev/],
    // more wildcards than are matched (each one multiplies the work): asked
    [`tee /dev/${'*'.repeat(2000)}x < img`, 'ask', /writes to files a pattern names/],
    [`tee /${'*/'.repeat(500)}x < img`, 'ask', /writes to files a pattern names/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['tee out*.log < img', 'tee /tmp/*.log < img', 'tee "/dev/[s]da" < img', 'tee /dev/null < img'])(
    '%j runs in bypass mode',
    devices.runsInBypass,
  );
});
