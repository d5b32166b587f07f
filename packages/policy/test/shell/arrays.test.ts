// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Indexed and associative arrays set in the line: elements, whole arrays, explicit and
 * arithmetic indexes, sparse arrays, `unset` of one element, parameter operations on elements,
 * elements set by `printf -v` and `read`, and words that expand into several arguments. Each
 * verdict matches what bash 5.2 does with the line (a file in place of the disk).
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const devices = deviceWritePolicy('arrays');
const roots = deviceWritePolicy('arrays-roots', ['chmod *', 'chown *', 'chgrp *', 'mv *']);

describe('arrays', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/(sda|sdb)/;
  const RUN_TIME = /named at run time/;
  it.each<Case>([
    ['A=(/dev/sda /dev/sdb); dd of="${A[0]}" < img', 'deny', DISK],
    ['A=(/dev/sda /dev/sdb); tee "${A[@]}" < img', 'deny', DISK],
    ['A=(out.img /dev/sdb); tee ${A[*]} < img', 'deny', DISK],
    ['A=(x.img /dev/sda); tee "${A[1]}" < img', 'deny', DISK],
    ['declare -a A=(/dev/sda); tee "${A[0]}" < img', 'deny', DISK],
    ['A[1]=/dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['A[1]=/dev/sda; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(/dev/sda); cp img "$A"', 'deny', DISK],
    ['A=(a.img); A+=(/dev/sda); tee "${A[@]}" < img', 'deny', DISK],
    ['A=(a.img b.img); A[1]=/dev/sdb; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(a.img); A=/dev/sda; tee "${A[@]}" < img', 'deny', DISK],
    ['D=/dev/sda; A=("$D" x.img); B=("${A[@]}"); tee "${B[0]}" < img', 'deny', DISK],
    ['A=(/dev/$NAME); tee "${A[0]}" < img', 'ask', RUN_TIME],
    ['A=(x.img); [ -e y ] && A=(/dev/sda); tee "${A[@]}" < img', 'ask', /may write to the block device/],
    // more elements than are followed make the line asked, however they are added
    [`A=(${'x '.repeat(5000)}); tee "\${A[@]}" < img`, 'ask', /more variables, values/],
    [
      `A=(${'x '.repeat(4000)}); ${'A+=(y z); '.repeat(60)}tee "\${A[@]}" < img`,
      'ask',
      /more variables, values/,
    ],
    ['A=(a.img); A+=(b.img /dev/sda); A+=(c.img); tee "${A[2]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'A=(out.img); tee "${A[0]}" < img',
    'A=(/dev/sda out.img); tee "${A[1]}" < img',
    'A=(/dev/sda); cp "${A[@]}" backup.img',
    'A=(/dev/sda); A=(out.img); tee "${A[@]}" < img',
    'A=(/dev/sda); unset A; tee "${A[@]}" < img',
    'f(){ local -a A=(/dev/sda); }; f; tee "${A[0]}" < img',
    'A=(/dev/sda x.img); A[0]=y.img; tee "${A[0]}" < img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('associative arrays', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  const MAYBE = /may write to the block device \/dev\/sda/;
  it.each<Case>([
    ['declare -A m=([k]=/dev/sda); dd of=${m[k]} < img', 'deny', DISK],
    ['declare -A m; m[x]=/dev/sda; cat img > ${m[x]}', 'deny', DISK],
    ['typeset -A m=([k]=/dev/sda); tee "${m[k]}" < img', 'deny', DISK],
    ['f(){ local -A m=([k]=/dev/sda); tee "${m[k]}" < img; }; f', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda [j]=x); tee "${m[@]}" < img', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda [j]=x); tee ${m[*]} < img', 'deny', DISK],
    ['declare -A m=(k /dev/sda); tee "${m[k]}" < img', 'deny', DISK],
    ['declare -A m=([/dev/sda]=1); tee "${!m[@]}" < img', 'deny', DISK],
    ['k=z; declare -A m=([$k]=/dev/sda); tee "${m[z]}" < img', 'deny', DISK],
    ['declare -A m=([z]=/dev/sda); k=z; tee "${m[$k]}" < img', 'deny', DISK],
    ['declare -A m=(["a b"]=/dev/sda); tee "${m["a b"]}" < img', 'deny', DISK],
    ['declare -A m=([0]=/dev/sda); tee $m < img', 'deny', DISK],
    ['declare -A m; m=x; m[k]=/dev/sda; tee ${m[*]} < img', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda); m+=([j]=x); tee "${m[j]}" "${m[k]}" < img', 'deny', DISK],
    ['declare -A m=([k]=/dev/s); m[k]+=da; tee "${m[k]}" < img', 'deny', DISK],
    ['f(){ declare -gA m=([k]=/dev/sda); }; f; tee "${m[k]}" < img', 'deny', DISK],
    ['declare -Ar m=([k]=/dev/sda); tee "${m[k]}" < img', 'deny', DISK],
    ['declare -A m=([k]=x); [ -e y ] && m[k]=/dev/sda; tee "${m[k]}" < img', 'ask', MAYBE],
    // explicit indexes in an indexed array
    ['A=([1]=/dev/sda); tee "${A[1]}" < img', 'deny', DISK],
    ['A=([1]=/dev/sda); tee "${A[@]}" < img', 'deny', DISK],
    ['A=([3]=x /dev/sda); tee "${A[4]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'declare -A m=([k]=/dev/sda); tee "$m" < img',
    'f(){ declare -A m=([k]=/dev/sda); }; f; tee "${m[k]}" < img',
    'declare -A m=([k]=/dev/sda); m[k]=out.img; tee "${m[k]}" < img',
    'declare -A m=([k]=/dev/sda); cp "${m[k]}" backup.img',
    'declare -A m=([a]=x.img [b]=y.img); tee "${m[@]}" < img',
    'A=([1]=/dev/sda); tee "${A[0]}" < img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('indexed array elements at an arithmetic index', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  const MAYBE = /may write to the block device \/dev\/sda/;
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'i=1; A[$i]=/dev/sda; tee "${A[0]}" < img',
    'm[x]=out.img; tee "${m[x]}" < img',
    'm[x]=/dev/sda; cp "${m[x]}" backup.img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('elements at run-time indexes and arithmetic that assigns', () => {
  const MAYBE = /may write to the block device \/dev\/sda/;
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // An index known only at run time may pick any element (or none); an operation or default on
  // such an element works on every one of them. Arithmetic that assigns (`((i++))`, `let`,
  // `$((i=1))`, `${A[i++]}`) leaves the variable known only at run time.
  it.each<Case>([
    ['i=1; A=(x /dev/sdaX); tee "${A[$i]%X}" < img', 'deny', DISK],
    ['declare -A m=([k]=/dev/sdaX); k=k; tee "${m[$k]%X}" < img', 'deny', DISK],
    ['A=(x /dev/sdaX); tee "${A[$(echo 1)]%X}" < img', 'deny', DISK],
    ['A=(x /dev/sdaX); tee "${A[$j]%X}" < img', 'ask', MAYBE],
    ['tee "${A[$i]:-/dev/sda}" < img', 'ask', MAYBE],
    ['A=(/dev/sda x); tee "${A[j]}" < img', 'ask', MAYBE],
    ['A=(/dev/sda x); tee "${A[$j]}" < img', 'ask', MAYBE],
    ['declare -A m=([a]=1 [b]=2 [c]=3 [d]=/dev/sda); tee "${m[$k]}" < img', 'ask', MAYBE],
    ['i=0; A=(/dev/sda x); tee "${A[i++]}" < img', 'ask', MAYBE],
    ['A=(x /dev/sda); i=0; ((i++)); tee "${A[i]}" < img', 'ask', MAYBE],
    ['A=(x /dev/sda); i=0; let i++; tee "${A[i]}" < img', 'ask', MAYBE],
    ['A=(x /dev/sda); i=0; : $((i=1)); tee "${A[i]}" < img', 'ask', MAYBE],
    ['A=(x /dev/sda); i=0; : ${A[i++]}; tee "${A[i]}" < img', 'ask', MAYBE],
    ['P=2; ((P--)); tee /dev/sda$P < img', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => roots.expectVerdict(entry));

  it.each([
    'A=(x y); tee "${A[$j]}" < img',
    'A=(x y); for ((i=0;i<2;i++)); do tee "${A[$i]}" < img; done',
    'A=(/dev/sda); cp "${A[$j]}" backup.img',
    'OUT=out.img; ((n++)); tee "$OUT" < img',
    'i=1; [[ $i == 1 ]] && A=(out.img x); tee "${A[0]}" < img',
  ])('%j stays allowed', roots.allowedInDefault);
});

describe('sparse arrays: an element set by index', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // bash keeps the index of every element: `A[1]=y` replaces index 1, not the second element.
  it.each<Case>([
    ['A=([1]=x [5]=/dev/sda); A[1]=y; tee "${A[5]}" < img', 'deny', DISK],
    ['A=([1]=x [5]=/dev/sda); A[1]=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(a); A[3]=/dev/sda; A[1]=y; tee "${A[3]}" < img', 'deny', DISK],
    ['A=([5]=/dev/sda); A=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=([5]=/dev/sda); A+=(x); tee "${A[5]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['A=([1]=x [5]=/dev/sda); A[5]=y; tee "${A[5]}" < img'])(
    '%j stays allowed',
    devices.allowedInDefault,
  );
});

describe('sparse arrays: elements set, unset or appended later', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // The indexes of a sparse array are followed: an element set, unset or appended later goes in
  // its place, as bash puts it (`A=([5]=x); A+=(y)` puts y at 6).
  it.each<Case>([
    ['A=([5]=x); A+=(/dev/sda); tee "${A[6]}" < img', 'deny', DISK],
    ['A=([1]=x [5]=/dev/sda); A[1]=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(a); A[3]=/dev/sda; A[1]=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=([2]=/dev/sda); A=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=([2]=x); A=/dev/sda; tee "${A[0]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => roots.expectVerdict(entry));

  it.each([
    'A=(x y /dev/sda); unset "A[1]"; A[2]=z; tee "${A[@]}" < img',
    'A=([1]=/dev/sda [5]=x); A[1]=y; tee "${A[@]}" < img',
    'A=(x /dev/sda); unset "A[0]"; A+=(y); tee "${A[2]}" < img',
    'A=([0]=/dev/sda [2]=x); A=y; tee "${A[@]}" < img',
    'A=(a); A[3]=/dev/sda; A[3]=y; tee "${A[@]}" < img',
    'A=(x /dev/sda y); unset "A[1]"; unset "A[1]"; tee "${A[@]}" < img',
    'A=([1]=x [5]=/dev/sda); unset "A[5]"; tee "${A[@]}" < img',
  ])('%j stays allowed', roots.allowedInDefault);
});

describe('unset of one element', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // `unset 'A[1]'` removes that element only (the others keep their indexes); `unset 'm[k]'` one key.
  it.each<Case>([
    ['A=(x /dev/sda y); unset "A[0]"; tee "${A[1]}" < img', 'deny', DISK],
    ['A=(x y /dev/sda); unset "A[1]"; tee "${A[@]}" < img', 'deny', DISK],
    ['declare -A m=([k]=x [j]=/dev/sda); unset "m[k]"; tee "${m[@]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'A=(/dev/sda x); unset "A[0]"; tee "${A[0]}" < img',
    'A=(x /dev/sda); unset \'A[1]\'; tee "${A[@]}" < img',
    'A=(x /dev/sda); unset A[1]; tee "${A[1]}" < img',
    'declare -A m=([k]=/dev/sda); unset "m[k]"; tee "${m[k]}" < img',
    'declare -A m=([k]=/dev/sda [j]=x); unset "m[k]"; tee "${m[@]}" < img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('parameter operations on array elements', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  const MAYBE = /may write to the block device \/dev\/sda/;
  // `${A[1]%x}`, `${m[k]:-x}`: the operation works on the element's values as it does on a
  // variable's (a default keeps both readings, as `${OUT:-x}` does).
  it.each<Case>([
    ['A=(/dev/sda); tee "${A[0]%X}" < img', 'deny', DISK],
    ['A=(x /dev/sdb); tee "${A[1]/b/a}" < img', 'deny', DISK],
    ['A=(x /dev/sda); cat img > ${A[1]:0:8}', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda.bak); tee "${m[k]%%.*}" < img', 'deny', DISK],
    ['declare -A m=([k]=/DEV/SDA); tee "${m[k],,}" < img', 'deny', DISK],
    ['declare -A m=([k]=/dev/sda); tee "${m[k]:-x}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'A=(/dev/sda); tee "${A[0]#/dev/}" < img',
    'declare -A m=([k]=/dev/sda); cp "${m[k]%X}" backup.img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('elements named as text by printf -v and read', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  const MAYBE = /may write to the block device \/dev\/sda/;
  // `printf -v 'A[1]'` and `read 'm[k]'` set that element (the subscript read as written).
  it.each<Case>([
    ['printf -v \'A[0]\' %s /dev/sda; tee "${A[0]}" < img', 'deny', DISK],
    ['A=(x y); printf -v \'A[1]\' %s /dev/sda; tee "${A[@]}" < img', 'deny', DISK],
    ['declare -A m; read \'m[k]\' <<< /dev/sda; tee "${m[k]}" < img', 'deny', DISK],
    ['read \'m[k]\' <<< /dev/sda; tee "${m[k]}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['A=(x /dev/sda); read \'A[1]\' <<< out.img; tee "${A[1]}" < img'])(
    '%j stays allowed',
    devices.allowedInDefault,
  );
});

describe('words that expand into several arguments', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // The operand a program writes depends on where the fields of an expansion fall.
  it.each<Case>([
    ['A=(img /dev/sda); cp "${A[@]}"', 'deny', DISK],
    ['X="img /dev/sda"; cp $X', 'deny', DISK],
    ['set -- img /dev/sda; cp "$@"', 'deny', DISK],
    ['A=(-o /dev/sda); sort "${A[@]}" img', 'deny', DISK],
    ['A=(-rf /); rm "${A[@]}"', 'deny', RM],
    ['X="-rf /"; rm $X', 'deny', RM],
    ['declare -A m=([k]=img [j]=/dev/sda); cp "${m[@]}"', 'ask', /may write to the block device \/dev\/sda/],
    ['A=(img /dev/sda); [ -e x ] && A=(/dev/sda img); cp "${A[@]}"', 'ask', /may write to the block device/],
    ['X="-rf /"; [ -e x ] && X="-v x"; rm $X', 'ask', /some expansions of its words match: rm/],
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['A=(/dev/sda img); cp "${A[@]}"', 'X="a.txt b.txt"; cp $X', 'A=(-v x.img); cp "${A[@]}" out.img'])(
    '%j stays allowed',
    devices.allowedInDefault,
  );
});
