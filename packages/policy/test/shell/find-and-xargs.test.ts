// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Commands `find -exec` and `xargs` run: file names they supply at run time (`{}`, `-I`), and
 * the commands xargs builds from a literal input.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('find-and-xargs');

describe('device targets named by find and xargs at run time', () => {
  const RUN_TIME = /device or kernel file named at run time/;
  it.each<Case>([
    ['find /dev -name sda -exec tee {} \\; < x', 'ask', RUN_TIME],
    ["find /dev/disk -type l -exec cp img '{}' ';'", 'ask', RUN_TIME],
    ['find / -name sda -exec tee {} +', 'ask', RUN_TIME],
    ['cd /dev && find . -name sda -exec cp img {} \\;', 'ask', RUN_TIME],
    ['find /dev -name sda -execdir tee {} \\; < x', 'ask', RUN_TIME],
    ['find /dev -name sda -exec dd of={} \\; < x', 'ask', /./],
    ['ls | xargs -I{} tee /dev/{} < x', 'ask', RUN_TIME],
    ['ls | xargs -I DISK cp img /dev/DISK', 'ask', RUN_TIME],
    ['ls | xargs --replace=@ tee /dev/@', 'ask', RUN_TIME],
    ['ls | xargs -i tee /dev/{}', 'ask', RUN_TIME],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'find . -name "*.txt" -exec cp {} backup/ \\;',
    'find src -name "*.log" -exec tee -a {} \\; < x',
    'find /dev -name sda -exec ls -l {} \\;',
    'ls | xargs -I{} cp {} backup/',
    'ls | xargs -I{} tee notes/{} < x',
    'ls | xargs cp -t backup',
  ])('%j stays allowed', allowedInDefault);
});

describe('literal input of xargs', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/(sda|sdb)/;
  const RUN_TIME = /named at run time/;
  it.each<Case>([
    ['echo /dev/sda | xargs -I{} cp img {}', 'deny', DISK],
    ["printf '/dev/sda\\n' | xargs tee", 'deny', DISK],
    ["printf '%s\\0' /dev/sda | xargs -0 tee", 'deny', DISK],
    ['xargs tee <<< /dev/sda', 'deny', DISK],
    ['echo a.img /dev/sda | xargs -n1 cp img', 'deny', DISK],
    ['echo /dev/sda x.img | xargs -n 1 cp img', 'deny', DISK],
    ['D=/dev/sda; echo "$D" | xargs tee', 'deny', DISK],
    ['echo /dev/sda | sudo xargs tee', 'deny', DISK],
    ['echo "\'/dev/sda\'" | xargs tee', 'deny', DISK],
    ['echo sda | xargs -I% cp img /dev/%', 'deny', DISK],
    ['echo /dev/$NAME | xargs tee', 'ask', RUN_TIME],
    ["printf '%s\\n' a.img /dev/sda | xargs -L1 cp img", 'deny', DISK],
    ['echo /dev/sda | xargs -r -t --max-args=1 tee', 'deny', DISK],
    ["echo /dev/sda | xargs -d '\\n' tee", 'deny', DISK],
    ['echo /dev/sda | (xargs tee)', 'deny', DISK],
    ['echo "\'rm -rf /\'" | xargs sh -c', 'deny', /^destructive-file-operation/],
    // known input shows more, never less: a shell fed by xargs stays asked
    ['echo ls | xargs sh -c', 'ask', /runs with arguments supplied at run time/],
    ['echo / | xargs rm', 'ask', /arguments decided at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'echo out.img | xargs tee',
    'xargs -a list.txt tee',
    'echo /dev/sda | xargs -a list.txt tee',
    'cat list.txt | xargs tee',
    'echo /dev/sda | xargs ls -l',
    'echo /dev/sda | xargs -I{} cp {} backup.img',
    'echo /dev/sda x.img | xargs -n1 echo',
    'echo /dev/sda | xargs tee < list.txt',
    'echo x.img /dev/sda | xargs -E /dev/sda tee',
  ])('%j stays allowed', allowedInDefault);
});
