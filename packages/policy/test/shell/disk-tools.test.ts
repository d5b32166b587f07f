import { describe, expect, it } from 'vitest';
import { type Case, deviceWritePolicy, shellPolicy } from '../helpers.js';

/**
 * Tools that rewrite partition tables, erase whole drives, wipe storage or rewrite firmware:
 * denied even in bypass mode under allow rules that name them, while the same tools reading
 * (printing a table, identifying a drive, pretending, a read-only test) stay allowed.
 */
const { runsInBypass, inBypass } = shellPolicy(
  ['sgdisk *', 'sfdisk *', 'parted *', 'nvme *', 'hdparm *', 'sudo sgdisk *'],
  'disks',
);
const devices = deviceWritePolicy('disk-wipes');

describe('partition-table and drive-erase tools', () => {
  it.each([
    ['sgdisk --zap-all /dev/sda', /sgdisk --zap-all rewrites a partition table/],
    ['sgdisk -Z /dev/nvme0n1', /sgdisk -Z rewrites a partition table/],
    ['sudo sgdisk -o /dev/sdb', /sgdisk -o rewrites/],
    ['sgdisk -n 1:0:+512M -t 1:ef00 /dev/sda', /sgdisk -[nt] rewrites/],
    ['sgdisk --delete=2 /dev/sda', /sgdisk --delete rewrites/],
    ['sfdisk /dev/sda < layout.txt', /sfdisk writes the partition table/],
    ['sfdisk --delete /dev/sda 2', /sfdisk --delete removes partitions/],
    ['parted -s /dev/sda mklabel gpt', /parted mklabel changes a disk/],
    ['parted --script /dev/sda rm 1', /parted rm changes a disk/],
    ['parted /dev/sda mkpart primary ext4 1MiB 100%', /parted mkpart changes a disk/],
    ['nvme format /dev/nvme0n1', /nvme format erases a drive/],
    ['nvme sanitize /dev/nvme0 -a 2', /nvme sanitize erases a drive/],
    ['hdparm --user-master u --security-erase p /dev/sda', /hdparm --security-erase destroys data/],
    ['hdparm --security-erase-enhanced p /dev/sda', /hdparm --security-erase-enhanced destroys data/],
  ])('%s is denied', async (command, reason) => {
    const decision = await inBypass(command);
    expect(decision.decision, decision.reason).toBe('deny');
    expect(decision.reason).toMatch(/^disk-destruction: /);
    expect(decision.reason).toMatch(reason);
  });

  it.each([
    'sgdisk -p /dev/sda',
    'sgdisk --print /dev/sda',
    'sgdisk -b table.bak /dev/sda',
    'sgdisk --pretend --zap-all /dev/sda',
    'sfdisk -l /dev/sda',
    'sfdisk --dump /dev/sda',
    'sfdisk --no-act /dev/sda < layout.txt',
    'parted -l',
    'parted /dev/sda print',
    'nvme list',
    'nvme id-ctrl /dev/nvme0',
    'hdparm -I /dev/sda',
    'hdparm -tT /dev/sda',
  ])('%s is allowed', runsInBypass);
});

describe('tools that wipe storage or rewrite firmware', () => {
  const WIPES = /^disk-destruction: /;
  it.each<Case>([
    ['badblocks -w /dev/sda', 'deny', WIPES],
    ['cryptsetup luksFormat /dev/sda', 'deny', WIPES],
    ['cryptsetup -q --type luks2 luksFormat /dev/sda', 'deny', WIPES],
    ['cryptsetup erase /dev/sda', 'deny', WIPES],
    ['sg_format --format /dev/sda', 'deny', WIPES],
    ['zpool labelclear -f /dev/sda', 'deny', WIPES],
    ['flashrom -p internal -w image.rom', 'deny', /^system-control: flashrom/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'badblocks -n /dev/sda',
    'badblocks /dev/sda',
    'cryptsetup status root',
    'sg_format /dev/sda',
    'zpool status',
    'flashrom -p internal -r backup.rom',
  ])('%j runs in bypass mode', devices.runsInBypass);
});
