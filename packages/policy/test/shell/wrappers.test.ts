// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy, writerPolicy, WIDE_WRITERS } from '../helpers.js';

/**
 * Wrappers that run another command (`valgrind`, `catchsegv`, `toybox`), change its directory or
 * environment (`env -C`, `sudo -D`, `env NAME=value`) or split a string into one (`env -S`): the
 * command they run is judged by the deny rules.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const wide = writerPolicy('wrappers-wide', WIDE_WRITERS);
const devices = deviceWritePolicy('wrappers');

describe('programs that run the command they are given', () => {
  it.each<Case>([
    // as strace and ltrace do
    ['valgrind rm -rf /', 'deny', /^destructive-file-operation/],
    ['valgrind --tool=memcheck --leak-check=full rm -rf /', 'deny', /^destructive-file-operation/],
    ['catchsegv rm -rf /', 'deny', /^destructive-file-operation/],
    // toybox runs its applets as busybox does
    ['toybox rm -rf /', 'deny', /^destructive-file-operation/],
  ])('%j is %s', async (...entry) => wide.expectVerdict(entry));

  it.each(['valgrind --tool=memcheck ls', 'toybox ls'])('%j stays allowed', wide.allowedInDefault);
});

describe('wrappers that change the directory or the environment of the command they run', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    ['env -C /dev tee sda < x', 'deny', DISK],
    ['env --chdir=/dev tee sda < x', 'deny', DISK],
    ['env --chdir /dev cp x sda', 'deny', DISK],
    ['sudo -D /dev tee sda < x', 'deny', DISK],
    ['sudo --chdir=/dev cp x sda', 'deny', DISK],
    ['env OUT=/dev/sda sh -c \'tee "$OUT"\' < x', 'deny', DISK],
    ['env -u X OUT=/dev/sda sh -c \'cp x "$OUT"\'', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'env -C /tmp tee sda < x',
    'env -C /dev ls -l sda',
    'sudo -D /dev ls sda',
    'env -C /dev true; tee sda < x',
    'env OUT=/dev/sda true; tee "$OUT" < x',
    'env OUT=/dev/sda tee "$OUT" < x',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('env -S, which splits its string into a command', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // Still asked (env splits the string by rules of its own), but a deny rule inside denies.
  it.each<Case>([
    ["env -S 'rm -rf /'", 'deny', RM],
    ['env -S"tee /dev/sda" < img', 'deny', DISK],
    ["env -iS 'rm -rf /'", 'deny', RM],
    ["env --split-string='rm -rf /'", 'deny', RM],
    ["env -S 'tee' /dev/sda < img", 'deny', DISK],
    ["env -S 'ls -l'", 'ask', /the -S option of this wrapper is not followed/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));
});
