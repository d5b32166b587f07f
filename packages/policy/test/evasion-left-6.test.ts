import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Writes outside design document 002's examples that are as lasting as them: UEFI firmware
 * variables, recursive mode or owner changes over the system's directories, moving one away,
 * and archives extracted into /dev, /proc or /sys. Judged in bypass mode under generous allow
 * rules (plus `chmod *`, `chown *`, `chgrp *`, `mv *`, `rm *`, `unzip *`, `awk *`); near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('left-6-roots', [
  'chmod *',
  'chown *',
  'chgrp *',
  'mv *',
  'rm *',
  'unzip *',
  'awk *',
]);
const EFI = /^system-control: (writes to \/sys\/firmware\/efi\/(efi)?vars\/|rm of UEFI firmware variables)/;
const ROOTS = /^destructive-file-operation: (ch(mod|own|grp) -R over|mv of) \//;
const ARCHIVE = /extracts files the archive names into \/(dev|proc|sys)/;

describe('UEFI firmware variables', () => {
  it.each<Case>([
    ['echo x > /sys/firmware/efi/efivars/Boot0000-8be4df61-93ca-11d2-aa0d-00e098032b8c', 'deny', EFI],
    ['cat name > /sys/firmware/efi/vars/del_var', 'deny', EFI],
    ['tee /sys/firmware/efi/efivars/* < x', 'deny', EFI],
    ['rm -f /sys/firmware/efi/efivars/*', 'deny', EFI],
    ['rm /sys//firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c', 'deny', EFI],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['ls /sys/firmware/efi/efivars', 'cp /sys/firmware/efi/efivars/BootOrder-x order.bin'])(
    '%j stays allowed',
    allowedInDefault,
  );
});

describe('recursive changes over the system and moving it away', () => {
  it.each<Case>([
    ['chmod -R 777 /', 'deny', ROOTS],
    ['chmod --recursive a-x /usr/', 'deny', ROOTS],
    ['chown -R nobody:nogroup /', 'deny', ROOTS],
    ['chgrp -R users /etc', 'deny', ROOTS],
    ['sudo chown -hR user //var', 'deny', ROOTS],
    ['mv /usr /usr.old', 'deny', ROOTS],
    ['mv -t /tmp /etc', 'deny', ROOTS],
    ['mv / /tmp/root', 'deny', ROOTS],
    // a pattern gives every root it matches
    ['chmod -R 777 /*', 'deny', ROOTS],
    ['chown -R user /u?r', 'deny', ROOTS],
    ['mv /[eu]* /tmp/old', 'deny', ROOTS],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'chmod -R u+w build',
    'chmod 755 /usr/local/bin/tool',
    'chown -R user /home/user/project',
    'chmod -R go-w /usr/local/share/app',
    'mv -t /usr x',
    'chmod -R 644 /home/*/notes',
    'mv build.log /var/tmp/build.log',
    'mv "$SRC" "$DST"',
  ])('%j stays allowed', allowedInDefault);
});

describe('archives extracted into /dev, /proc or /sys', () => {
  // The archive names the files: an existing device node is replaced, or written with --overwrite.
  it.each<Case>([
    ['tar -xf img.tar -C /dev', 'ask', ARCHIVE],
    ['tar xf img.tar --directory=/dev/', 'ask', ARCHIVE],
    ['tar --extract --overwrite -f img.tar -C /sys', 'ask', ARCHIVE],
    ['tar -xC /dev -f img.tar', 'ask', ARCHIVE],
    ['unzip -o img.zip -d /dev', 'ask', ARCHIVE],
    ['unzip -d/proc img.zip', 'ask', ARCHIVE],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['tar -xf img.tar -C /tmp/out', 'tar -cf dev.tar -C /dev .', 'unzip img.zip -d out'])(
    '%j stays allowed',
    allowedInDefault,
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([`awk '{ print "x > y" }' img`, `awk -F';' '{ print $1 ";" $2 }' img`])(
    '%j stays allowed',
    allowedInDefault,
  );
});
