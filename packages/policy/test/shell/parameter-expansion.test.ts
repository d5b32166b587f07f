// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Parameter expansions worked out on the values set earlier in the line: pattern removal and
 * replacement, substrings, case changes, alternatives, indirection, and default values.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('parameter-expansion');

describe('parameter operations on values set in the line', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
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

describe('default values of variables', () => {
  // a default value is used when the variable is empty or unset
  it.each<Case>([
    ['tee "${OUT:-/dev/sda}" < x', 'ask', /may write to the block device \/dev\/sda/],
    ['echo x > "${OUT:=/dev/sda}"', 'ask', /may write to the block device \/dev\/sda/],
    ['cp x ${OUT-"/dev/$DISK"}', 'ask', /named at run time/],
    ['OUT=/dev/sdb; tee "${OUT:-/dev/sda}" < x', 'deny', /^disk-destruction: writes to the block device/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['tee "${OUT:-out.img}" < x', 'cp x "${DEST:-backup}/"'])('%j stays allowed', allowedInDefault);
});
