// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Items a fifth round left: array elements at arithmetic or unknown indexes, sparse arrays and
 * `unset` of one element. Each line is judged in bypass mode under generous allow rules, where
 * anything neither denied nor asked runs; each verdict was checked against what bash 5.2 does
 * with the line (a file in place of the disk); near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('left-6');
const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
const MAYBE = /may write to the block device \/dev\/sda/;

describe('indexed array elements at an arithmetic index', () => {
  // Without `declare -A` the subscript is arithmetic: `m[x]` is `m[$x]`, element 0 when x is unset.
  it.each<Case>([
    ['i=1; A[$i]=/dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['i=1; A[i]=/dev/sda; cat img > ${A[1]}', 'deny', DISK],
    ['i=2; A=(x y /dev/sda); tee "${A[i]}" < img', 'deny', DISK],
    ['m[x]=/dev/sda; cat img > ${m[x]}', 'ask', MAYBE],
    ['m[x]=/dev/sda; tee "${m[0]}" < img', 'ask', MAYBE],
    ['m[$k]=/dev/sda; tee "${m[@]}" < img', 'ask', MAYBE],
    ['A=(/dev/sda); A[x]=out.img; tee "${A[0]}" < img', 'ask', MAYBE],
    ['declare -A m; m[$k]=/dev/sda; tee "${m[$k]}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'i=1; A[$i]=/dev/sda; tee "${A[0]}" < img',
    'm[x]=out.img; tee "${m[x]}" < img',
    'm[x]=/dev/sda; cp "${m[x]}" backup.img',
  ])('%j stays allowed', allowedInDefault);
});

describe('sparse arrays', () => {
  // bash keeps the index of every element: `A[1]=y` replaces index 1, not the second element.
  it.each<Case>([
    ['A=([1]=x [5]=/dev/sda); A[1]=y; tee "${A[5]}" < img', 'deny', DISK],
    ['A=([1]=x [5]=/dev/sda); A[1]=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(a); A[3]=/dev/sda; A[1]=y; tee "${A[3]}" < img', 'deny', DISK],
    ['A=([5]=/dev/sda); A=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=([5]=/dev/sda); A+=(x); tee "${A[5]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['A=([1]=x [5]=/dev/sda); A[5]=y; tee "${A[5]}" < img'])('%j stays allowed', allowedInDefault);
});

describe('unset of one element', () => {
  // `unset 'A[1]'` removes that element only (the others keep their indexes); `unset 'm[k]'` one key.
  it.each<Case>([
    ['A=(x /dev/sda y); unset "A[0]"; tee "${A[1]}" < img', 'deny', DISK],
    ['A=(x y /dev/sda); unset "A[1]"; tee "${A[@]}" < img', 'deny', DISK],
    ['declare -A m=([k]=x [j]=/dev/sda); unset "m[k]"; tee "${m[@]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'A=(/dev/sda x); unset "A[0]"; tee "${A[0]}" < img',
    'A=(x /dev/sda); unset \'A[1]\'; tee "${A[@]}" < img',
    'A=(x /dev/sda); unset A[1]; tee "${A[1]}" < img',
    'declare -A m=([k]=/dev/sda); unset "m[k]"; tee "${m[k]}" < img',
    'declare -A m=([k]=/dev/sda [j]=x); unset "m[k]"; tee "${m[@]}" < img',
  ])('%j stays allowed', allowedInDefault);
});

describe("the shell's own descriptors through /proc/$$/fd", () => {
  // `/proc/$$/fd/N` is descriptor N of the shell: one opened in the line by `exec` is followed as
  // `/dev/fd/N` is. In a subshell `$$` names the parent (over-strict there, never looser);
  // `/proc/$$/task/$$/...` is in bad-input-left-7.test.ts.
  it.each<Case>([
    ['exec 3</dev/sda; echo x > /proc/$$/fd/3', 'deny', DISK],
    ['exec 3</dev/sda; tee /proc/${BASHPID}/fd/3 < img', 'deny', DISK],
    ['exec 5</dev/sda; cp img "/proc/$$/fd/5"', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['echo x | tee /proc/$$/fd/1', 'echo x | tee /proc/$$/fd/2'])('%j stays allowed', allowedInDefault);
});

describe('parameter operations on array elements', () => {
  // `${A[1]%x}`, `${m[k]:-x}`: the operation works on the element's values as it does on a
  // variable's (a default keeps both readings, as `${OUT:-x}` does).
  it.each<Case>([
    ['A=(/dev/sda); tee "${A[0]%X}" < img', 'deny', DISK],
    ['A=(x /dev/sdb); tee "${A[1]/b/a}" < img', 'deny', DISK],
    ['A=(x /dev/sda); cat img > ${A[1]:0:8}', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda.bak); tee "${m[k]%%.*}" < img', 'deny', DISK],
    ['declare -A m=([k]=/DEV/SDA); tee "${m[k],,}" < img', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda); tee "${m[k]:-x}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'A=(/dev/sda); tee "${A[0]#/dev/}" < img',
    'declare -A m=([k]=/dev/sda); cp "${m[k]%X}" backup.img',
  ])('%j stays allowed', allowedInDefault);
});

describe('elements named as text by printf -v and read', () => {
  // `printf -v 'A[1]'` and `read 'm[k]'` set that element (the subscript read as written).
  it.each<Case>([
    ['printf -v \'A[0]\' %s /dev/sda; tee "${A[0]}" < img', 'deny', DISK],
    ['A=(x y); printf -v \'A[1]\' %s /dev/sda; tee "${A[@]}" < img', 'deny', DISK],
    ['declare -A m; read \'m[k]\' <<< /dev/sda; tee "${m[k]}" < img', 'deny', DISK],
    ['read \'m[k]\' <<< /dev/sda; tee "${m[k]}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['A=(x /dev/sda); read \'A[1]\' <<< out.img; tee "${A[1]}" < img'])(
    '%j stays allowed',
    allowedInDefault,
  );
});
