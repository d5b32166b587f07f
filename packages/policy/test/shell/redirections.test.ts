import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/index.js';
import { type Case, bash, call, deviceWritePolicy } from '../helpers.js';

/**
 * Words the grammar hangs on a redirection (`rm > /dev/null -rf /`, `tee < img /dev/sda`): bash
 * gives them to the command, and so does the analysis.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('redirections');

describe('words after a redirection belong to the command', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  it.each<Case>([
    ['rm > /dev/null -rf /', 'deny', RM],
    ['rm 2>/dev/null -rf /', 'deny', RM],
    ['rm -r < /dev/null -f /', 'deny', RM],
    ['tee < img /dev/sda', 'deny', DISK],
    ['dd < img of=/dev/sda', 'deny', DISK],
    ['cp > log img /dev/sda', 'deny', DISK],
    ['tee &> log /dev/sda < img', 'deny', DISK],
    ['tee <<EOF /dev/sda\nx\nEOF', 'deny', DISK],
    ['sudo > log rm -rf /', 'deny', RM],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['echo x 2>/dev/null y', 'cat < list.txt -n', 'tee < img out.img', 'ls 2>/dev/null -la /dev'])(
    '%j stays allowed',
    allowedInDefault,
  );

  it('under an allow rule for rm, rm -rf hidden after a redirection is still denied', async () => {
    const policy = createPolicy({ commands: { allow: ['rm *'] } });
    const decision = await policy.check(call(bash, { command: 'rm > /dev/null -rf /' }));
    expect(decision.decision, decision.reason).toBe('deny');
  });
});
