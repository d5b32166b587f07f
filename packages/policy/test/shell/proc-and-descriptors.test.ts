// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Paths that lead back to the working directory or to open descriptors: `/proc/self/cwd`, the
 * shell's own `/proc/$$/...` and its threads, `/dev/fd/N` and `/dev/stdin` of descriptors opened
 * earlier in the line, also inside functions. Each verdict matches what bash 5.2 does with the
 * line (a file in place of the disk).
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const devices = deviceWritePolicy('proc-and-descriptors');
const roots = deviceWritePolicy('proc-threads', ['chmod *', 'chown *', 'chgrp *', 'mv *']);

describe('/proc/self/cwd and descriptors opened earlier in the line', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
  it.each<Case>([
    ['cd /dev; tee /proc/self/cwd/sda < img', 'deny', DISK],
    ['cd /dev && cp img /proc/thread-self/cwd/./sda', 'deny', DISK],
    ['cd /; echo x > /proc/self/cwd/dev/sda', 'deny', DISK],
    ['tee /proc/self/cwd/../../dev/sda < img', 'ask', /depending on the working directory/],
    ['exec 3</dev/sda; echo x > /dev/fd/3', 'deny', DISK],
    ['exec 3</dev/sda; tee /proc/self/fd/3 < img', 'deny', DISK],
    ['exec 4< /dev/sda 5<img; cp img /dev/fd/4', 'deny', DISK],
    ['tee /dev/stdin < /dev/sda', 'deny', DISK],
    ['cp img /dev/fd/0 < /dev/sda', 'deny', DISK],
    ['dd if=img of=/proc/self/fd/0 < /dev/sda', 'deny', DISK],
    ['exec 3</dev/sda && tee /dev/fd/3 < img', 'deny', DISK],
    ['true && exec 3</dev/sda; tee /dev/fd/3 < img', 'ask', /may write to the block device \/dev\/sda/],
    ['[ -b x ] && exec 3</dev/sda; tee /dev/fd/3 < img', 'ask', /may write to the block device \/dev\/sda/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'cd /tmp; tee /proc/self/cwd/sda < img',
    'exec 3>out.log; echo x > /dev/fd/3',
    'echo x > /dev/stdout',
    'echo x > /dev/fd/2',
    'tee /dev/stdin < img',
    'exec 3</dev/sda; exec 3<img; tee /dev/fd/3 < img',
    'exec 3</dev/sda 3<&-; tee /dev/fd/3 < img',
    // Like `tee sda`: the directory the line starts in is not judged.
    'tee /proc/self/cwd/sda < img',
    'tee /dev/fd/7 < img',
  ])('%j runs in bypass mode', devices.runsInBypass);
});

describe('descriptors reached through links, directories and redirections', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
  it.each<Case>([
    ['ln -s /dev/stdin x; tee x < /dev/sda', 'deny', DISK],
    ['cd /dev; tee stdin < /dev/sda', 'deny', DISK],
    ['cd /dev/fd; tee 3 3</dev/sda', 'deny', DISK],
    ['cd /proc/self/fd; cp img 0 < /dev/sda', 'deny', DISK],
    ['exec 0</dev/sda; tee /dev/stdin', 'deny', DISK],
    ['tee /dev/stdout 1</dev/sda', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));
});

describe("the shell's own /proc/PID/cwd and /proc/PID/root", () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // `$$` is the shell, even in a subshell or a pipeline stage (whose working directory may
  // differ); `$BASHPID` the (sub)shell running the word; `bash -c` starts a shell of its own.
  it.each<Case>([
    ['cd /dev; cat img > /proc/$$/cwd/sda', 'deny', DISK],
    ['cd /dev; tee /proc/$BASHPID/cwd/sda < img', 'deny', DISK],
    ['cd /dev && cp img "/proc/${$}/cwd/./sda"', 'deny', DISK],
    ['cd /dev; echo x | tee /proc/$$/cwd/sda', 'deny', DISK],
    ['(cd /dev; tee /proc/$BASHPID/cwd/sda < img)', 'deny', DISK],
    ["bash -c 'cd /dev; tee /proc/$$/cwd/sda < img'", 'deny', DISK],
    ['f(){ cd /dev; tee /proc/$$/cwd/sda < img; }; f', 'deny', DISK],
    ['tee /proc/$$/root/dev/sda < img', 'deny', DISK],
    ['tee "/proc/${BASHPID}/root/dev/sda" < img', 'deny', DISK],
    ['(cd /dev; tee /proc/$$/root/dev/sda < img)', 'deny', DISK],
    // a wrapper moves the command, not the shell; `$$` in a subshell that moved is not followed
    ['cd /dev; env -C /tmp tee /proc/$BASHPID/cwd/sda < img', 'deny', DISK],
    ['(cd /dev; tee /proc/$$/cwd/sda < img)', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'cd /tmp; tee /proc/$$/cwd/sda < img',
    'tee /proc/$BASHPID/cwd/out.img < img',
    'env -C /dev tee /proc/$$/cwd/sda < img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe("the shell's own descriptors through /proc/$$/fd", () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // `/proc/$$/fd/N` is descriptor N of the shell: one opened in the line by `exec` is followed as
  // `/dev/fd/N` is. In a subshell `$$` names the parent (over-strict there, never looser).
  it.each<Case>([
    ['exec 3</dev/sda; echo x > /proc/$$/fd/3', 'deny', DISK],
    ['exec 3</dev/sda; tee /proc/${BASHPID}/fd/3 < img', 'deny', DISK],
    ['exec 5</dev/sda; cp img "/proc/$$/fd/5"', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['echo x | tee /proc/$$/fd/1', 'echo x | tee /proc/$$/fd/2'])(
    '%j stays allowed',
    devices.allowedInDefault,
  );
});

describe("the shell's own threads under /proc", () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // `/proc/PID/task/TID/` is a thread of the process: its root, working directory and descriptors
  // are the process's, so `/proc/$$/task/$$/cwd` is the shell's working directory.
  it.each<Case>([
    ['cd /dev; tee /proc/$$/task/$$/cwd/sda < img', 'deny', DISK],
    ['cd /dev; tee /proc/self/task/$BASHPID/cwd/sda < img', 'deny', DISK],
    ['cd /dev; tee /proc/thread-self/task/1/cwd/sda < img', 'deny', DISK],
    ['exec 3</dev/sda; echo x > /proc/$$/task/$$/fd/3', 'deny', DISK],
    ['tee /proc/1/task/1/root/dev/sda < img', 'deny', DISK],
    ['tee /proc/$$/task/$$/root/dev/sda < img', 'deny', DISK],
    [
      'exec 3</dev/sda; tee /proc/self/task/*/fd/3 < img',
      'ask',
      /a pattern names under \/dev, \/proc or \/sys/,
    ],
    ['cd /dev; (cd /; tee /proc/$$/task/$$/cwd/sda < img)', 'ask', /named at run time/],
    ['tee /proc/self/task/1/cwd/../../dev/sda < img', 'ask', /depending on the working directory/],
  ])('%j is %s', async (...entry) => roots.expectVerdict(entry));

  it.each(['echo x | tee /proc/$$/task/$$/fd/1', 'cd /dev; tee /proc/$$/task/$$/cwd/../../tmp/out < img'])(
    '%j stays allowed',
    roots.allowedInDefault,
  );
});

describe('functions called with descriptors open', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
  it.each<Case>([
    ['f(){ tee /dev/stdin; }; f < /dev/sda', 'deny', DISK],
    ['f(){ cp img /dev/fd/3; }; exec 3</dev/sda; f', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['f(){ tee /dev/stdin; }; f < img', 'f(){ tee /dev/stdin; }; f'])(
    '%j runs in bypass mode',
    devices.runsInBypass,
  );
});
