import { describe, expect, it } from 'vitest';
import { shellPolicy } from './helpers.js';

/**
 * Tools that rewrite partition tables or erase whole drives: denied even in bypass mode under
 * allow rules that name them, while the same tools reading (printing a table, identifying a
 * drive, pretending) stay allowed.
 */
const { inBypass, runsInBypass } = shellPolicy(
  ['sgdisk *', 'sfdisk *', 'parted *', 'nvme *', 'hdparm *', 'sudo sgdisk *'],
  'disks',
);

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
