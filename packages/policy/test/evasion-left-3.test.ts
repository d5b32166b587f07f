// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../src/index.js';
import { type Case, deviceWritePolicy } from './device-write-cases.js';
import { bash, call } from './helpers.js';

/**
 * Ways to hide a destructive command from the default rules that a third sweep found open,
 * with their near misses. Each line is judged in bypass mode under generous allow rules, where
 * anything neither denied nor asked runs; the near misses must stay allowed in the default mode.
 */
const { expectVerdict, allowedInDefault, runsInBypass } = deviceWritePolicy('evasion-3');
const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
const RM = /^destructive-file-operation: rm with recursive and force flags/;

describe('words after a redirection belong to the command', () => {
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

describe('parameter operations on values set in the line', () => {
  it.each<Case>([
    ['X=x/dev/sda; tee "${X#x}" < img', 'deny', DISK],
    ['X=a/b/c/dev/sda; tee "/${X#*/*/*/}" < img', 'deny', DISK],
    ['X=/dev/sda.bak; tee "${X%.bak}" < img', 'deny', DISK],
    ['X=/dev/sdaXX; tee "${X%%X*}" < img', 'deny', DISK],
    ['X=/tmp/sda; tee "${X/tmp/dev}" < img', 'deny', DISK],
    ['X=/tmp/sda; tee "${X/#\\/tmp/\\/dev}" < img', 'deny', DISK],
    ['X=/dev/sdz; cp img "${X//z/a}"', 'deny', DISK],
    ['X=/DEV/SDA; tee "${X,,}" < img', 'deny', DISK],
    ['X=/DEV/SDA; tee "${X@L}" < img', 'deny', DISK],
    ['X=\'\\x2fdev/sda\'; tee "${X@E}" < img', 'deny', DISK],
    ['X=AAA/dev/sda; tee "${X:3}" < img', 'deny', DISK],
    ['X=/dev/sda; tee "${X:?unset}" < img', 'deny', DISK],
    ['X=1; tee ${X:+/dev/sda} < img', 'deny', DISK],
    ['Y=X; X=/dev/sda; tee "${!Y}" < img', 'deny', DISK],
    ['tee ${X:+/dev/sda} < img', 'ask', /may write to the block device/],
    [`X=/dev/sda${'A'.repeat(300)}; tee "\${X%%A*}" < img`, 'ask', /more variables, values/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'X=/dev/sda; tee "${X@Q}" < img',
    'X=/dev/sda; tee "${X//s/}" < img',
    'X=/dev/sda; tee "${X##*/}" < img',
    'X=/dev/sda; tee "${X:0:4}" < img',
    'tee "${X##*/}" < img',
    'X=; tee ${X:+/dev/sda} < img',
  ])('%j stays allowed', allowedInDefault);
});

describe('positional parameters, function arguments and command names set in the line', () => {
  it.each<Case>([
    ['set -- /dev/sda; tee "$1" < img', 'deny', DISK],
    ['set -e -- x.img /dev/sda; tee "$@" < img', 'deny', DISK],
    ['set -- x.img /dev/sda; shift; tee "$1" < img', 'deny', DISK],
    ['f(){ tee "$@"; }; f /dev/sda < img', 'deny', DISK],
    ['f(){ dd of="$1"; }; f /dev/sda < img', 'deny', DISK],
    ['function f { cp img "${2}"; }; f x /dev/sda', 'deny', DISK],
    ['f(){ g "$@"; }; g(){ tee "$1"; }; f /dev/sda < img', 'deny', DISK],
    ['f(){ "$@"; }; f rm -rf /', 'deny', RM],
    ['X=rm; $X -rf /', 'deny', RM],
    ['T=tee; $T /dev/sda < img', 'deny', DISK],
    ['$(echo rm) -rf /', 'deny', RM],
    [`f(){ tee "$1"; }; ${'f a.img; '.repeat(17)}true`, 'ask', /called with arguments more than 16 times/],
    ['f(){ "$@"; }; f ls', 'ask', /command name is computed at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'f(){ tee "$1"; }; f out.img < img',
    'set -- /dev/sda; shift; tee "$1" < img',
    'set -e; tee "$1" < img',
    'f(){ cp "$1" backup.img; }; f /dev/sda',
    'f(){ local a=1; }; f /dev/sda; tee out.img < img',
  ])('%j runs in bypass mode (no deny rule, nothing unknown)', runsInBypass);
});

describe('paths through /proc and ranges discarded by fallocate', () => {
  it.each<Case>([
    ['tee /proc/self/root/dev/sda < img', 'deny', DISK],
    ['cp img /proc/1/root/dev/sda', 'deny', DISK],
    ['echo x > /proc/thread-self/root/proc/self/root/dev/sda', 'deny', DISK],
    ['fallocate -p -o 0 -l 1G /dev/sda', 'deny', /^disk-destruction: fallocate/],
    ['fallocate --zero-range -l 1G /dev/nvme0n1', 'deny', /^disk-destruction: fallocate/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['fallocate -l 1G disk.img', 'fallocate -p -l 4K disk.img', 'cat /proc/self/root/dev/sda'])(
    '%j runs in bypass mode',
    runsInBypass,
  );
});
