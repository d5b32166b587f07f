// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import {
  type Case,
  deviceWritePolicy,
  writerPolicy,
  WIDE_WRITERS,
  OWNER_AND_MOVE_COMMANDS,
} from '../helpers.js';

/**
 * Programs that write the files their arguments name (`tar -cf`, `install`, `uniq IN OUT`,
 * `openssl -out`, `socat FILE:`, `find -fprint`, awk's `print > "FILE"`, `rsync
 * --write-devices`, `fallocate -p`), and archives extracted into /dev, /proc or /sys.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const wide = writerPolicy('programs-wide', WIDE_WRITERS);
const devices = deviceWritePolicy('programs');
const archives = deviceWritePolicy('programs-archives', OWNER_AND_MOVE_COMMANDS);

describe('programs that write the file they are given', () => {
  it.each<Case>([
    ['install -m 644 disk.img /dev/sda', 'deny', /^disk-destruction/],
    ['xxd -r dump.hex /dev/sda', 'deny', /^disk-destruction/],
    ['tar -cf /dev/sda .', 'deny', /^disk-destruction/],
    ['tar --create --file=/dev/sda .', 'deny', /^disk-destruction/],
    ['tar cf /dev/nvme0n1 .', 'deny', /^disk-destruction/],
    ['blkdiscard /dev/sda', 'deny', /^disk-destruction/],
    // toybox runs its applets as busybox does
    ['toybox cp x /dev/sda', 'deny', /^disk-destruction/],
  ])('%j is %s', async (...entry) => wide.expectVerdict(entry));

  it.each([
    'tar -xf /dev/sr0',
    'tar -tf backup.tar',
    'tar -cf backup.tar src',
    'xxd /dev/sda',
    'xxd -r dump.hex out.bin',
    'install -m 755 tool.sh bin/tool',
  ])('%j stays allowed', wide.allowedInDefault);
});

describe('uniq, openssl, socat, pv and ddrescue writing the file their arguments name', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    ['uniq img /dev/sda', 'deny', DISK],
    ['uniq -f 1 img /dev/sda', 'deny', DISK],
    ['openssl enc -in img -out /dev/sda', 'deny', DISK],
    ['socat -u FILE:img FILE:/dev/sda', 'deny', DISK],
    ['socat - OPEN:/dev/sda,wronly < img', 'deny', DISK],
    ['pv -o /dev/sda img', 'deny', DISK],
    ['pv img --output /dev/sda', 'deny', DISK],
    ['ddrescue -f img /dev/sda', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'uniq img out.txt',
    'uniq -c img',
    'openssl enc -in img -out out.bin',
    'socat -u FILE:/dev/sda FILE:backup.img',
    'pv img -o out.img',
    'ddrescue img /dev/sda',
  ])('%j runs in bypass mode', devices.runsInBypass);
});

describe('ranges discarded by fallocate', () => {
  it.each<Case>([
    ['fallocate -p -o 0 -l 1G /dev/sda', 'deny', /^disk-destruction: fallocate/],
    ['fallocate --zero-range -l 1G /dev/nvme0n1', 'deny', /^disk-destruction: fallocate/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['fallocate -l 1G disk.img', 'fallocate -p -l 4K disk.img'])(
    '%j runs in bypass mode',
    devices.runsInBypass,
  );
});

describe('files find writes by itself', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  // find opens the file of -fprint, -fprint0, -fprintf and -fls for writing, match or not.
  it.each<Case>([
    ['find / -fprint /dev/sda', 'deny', DISK],
    ['find . -name x -fprint0 /dev/sda', 'deny', DISK],
    ["find / -fprintf /dev/sda '%p'", 'deny', DISK],
    ['find / -fls /dev/sda', 'deny', DISK],
    ['cd /dev; find / -fprint sda', 'deny', DISK],
    ['find / -fprint /dev/$DISK', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['find . -fprint list.txt', 'find . -name -fprint', "find . -printf '%p' -print"])(
    '%j stays allowed',
    devices.allowedInDefault,
  );
});

describe('files an awk program writes', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    ['awk \'BEGIN { print "x" > "/dev/sda" }\'', 'deny', DISK],
    ['awk \'{ printf "%s", $0 >> "/dev/sda" }\' img', 'deny', DISK],
    ['gawk \'{ print; print $0 > "/dev/sda" }\' img', 'deny', DISK],
    ["awk '{ print > $1 }' img", 'ask', /awk program writes to a file named at run time/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['awk \'{ print > "out.txt" }\' img', "awk 'NR > 1 { print }' img", "awk '{ print $1 }' img"])(
    '%j runs in bypass mode',
    devices.runsInBypass,
  );
});

describe('awk programs with separators inside literals', () => {
  // Statements are cut at `;`, line breaks and braces outside string and regex literals.
  const AWK_FILE = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    [`awk '{ print "a;b" > "/dev/sda" }' img`, 'deny', AWK_FILE],
    [`awk '{ print "}" > "/dev/sda" }' img`, 'deny', AWK_FILE],
    [`awk '/;/ { print > "/dev/sda" }' img`, 'deny', AWK_FILE],
    [`awk '{ print "a\\"; x" > "/dev/sda" }' img`, 'deny', AWK_FILE],
    [`awk '{ print "a;" "b" | "sh" }' img`, 'ask', /awk program runs commands/],
    [`awk '{ print "x{" | "sh" }' img`, 'ask', /awk program runs commands/],
  ])('%j is %s', async (...entry) => archives.expectVerdict(entry));

  it.each([`awk '{ print "x > y" }' img`, `awk -F';' '{ print $1 ";" $2 }' img`])(
    '%j stays allowed',
    archives.allowedInDefault,
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'rsync --copy-devices /dev/sda backup/sda.img',
    'rsync -a --copy-devices /dev/nvme0n1 host:backups/',
    'rsync --write-devices disk.img backup/disk.img',
    'rsync -a src/ dest/',
    'rsync -a "$SRC" dest/',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('archives extracted into /dev, /proc or /sys', () => {
  const ARCHIVE = /extracts files the archive names into \/(dev|proc|sys)/;
  // The archive names the files: an existing device node is replaced, or written with --overwrite.
  it.each<Case>([
    ['tar -xf img.tar -C /dev', 'ask', ARCHIVE],
    ['tar xf img.tar --directory=/dev/', 'ask', ARCHIVE],
    ['tar --extract --overwrite -f img.tar -C /sys', 'ask', ARCHIVE],
    ['tar -xC /dev -f img.tar', 'ask', ARCHIVE],
    ['unzip -o img.zip -d /dev', 'ask', ARCHIVE],
    ['unzip -d/proc img.zip', 'ask', ARCHIVE],
  ])('%j is %s', async (...entry) => archives.expectVerdict(entry));

  it.each(['tar -xf img.tar -C /tmp/out', 'tar -cf dev.tar -C /dev .', 'unzip img.zip -d out'])(
    '%j stays allowed',
    archives.allowedInDefault,
  );
});
