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
