// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { shellPolicy } from './helpers.js';

/**
 * Gaps a second sweep noticed and left: kernel memory written like a disk, and rsync writing
 * into devices. Each line is judged in bypass mode under generous allow rules, where anything
 * that is neither denied nor asked runs; the near misses must stay allowed in the default mode.
 */
const ALLOW = [
  'echo *',
  'cat *',
  'tee *',
  'cp *',
  'dd *',
  'sponge *',
  'rsync *',
  'sudo tee *',
  'sudo rsync *',
  'true',
];

type Expected = 'deny' | 'ask';
type Case = readonly [string, Expected, RegExp];

const { inBypass, inDefault } = shellPolicy(ALLOW, 'left-2');

async function expectVerdict([command, expected, reason]: Case): Promise<void> {
  const decision = await inBypass(command);
  expect(decision.decision, decision.reason).toBe(expected);
  expect(decision.reason).toMatch(reason);
}

const allowedInDefault = async (command: string): Promise<void> => {
  const decision = await inDefault(command);
  expect(decision.decision, decision.reason).toBe('allow');
};

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
    async (command) => {
      const decision = await inBypass(command);
      expect(decision.decision, decision.reason).toBe('allow');
    },
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
