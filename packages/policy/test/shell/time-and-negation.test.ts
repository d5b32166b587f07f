// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * `time` and `!` before a command or a compound command, which the grammar reads as a command
 * named `time`, `!` or `{`: bash runs the command after them, and so it is judged.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const devices = deviceWritePolicy('time-and-negation');
const marks = deviceWritePolicy('negation-runs', ['rm *', 'ls *']);

describe('time and ! before a compound command', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // The grammar reads `time {` and `! {` as a command named `time` or `{`; bash runs the group.
  it.each<Case>([
    ['time { rm -rf /; }', 'deny', RM],
    ['time -p { tee /dev/sda; } < img', 'deny', DISK],
    ['! { rm -rf /; }', 'deny', RM],
    ['time while true; do rm -rf /; done', 'deny', RM],
    ['time ! { rm -rf /; }', 'deny', RM],
    ['time { tee /dev/stdin; } < /dev/sda', 'deny', DISK],
    ['echo é; time if true; then rm -rf /; fi', 'deny', RM],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['time { echo x; }', '! { echo x; }', 'time ls'])('%j runs in bypass mode', devices.runsInBypass);
});

describe('runs of ! before a command', () => {
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // bash negates the status once per `!` and runs the command after them; the grammar reads a
  // second `!` as a command name.
  it.each<Case>([
    ['! ! ! ! ! ! rm -rf /', 'deny', RM],
    ['! ! ! ! ! ! ! ! { rm -rf /; }', 'deny', RM],
    ['true && ! ! ! ! ! ! ! rm -rf / || true', 'deny', RM],
  ])('%j is %s', async (...entry) => marks.expectVerdict(entry));

  it('2,000 marks before rm -rf / still deny it', async () =>
    marks.expectVerdict([`${'! '.repeat(2000)}rm -rf /`, 'deny', RM]));

  it.each(['! ! ! ! ! ! ! ls -l', '! ! ls'])('%j stays allowed', marks.allowedInDefault);
});
