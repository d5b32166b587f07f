// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Namerefs (`declare -n`, `local -n`, `typeset -n`): reads and writes through a nameref reach
 * the variable, array or element it names, including a target given after the declaration. Each
 * verdict matches what bash 5.2 does with the line (a file in place of the disk).
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const roots = deviceWritePolicy('namerefs', ['chmod *', 'chown *', 'chgrp *', 'mv *']);
const arithmetic = deviceWritePolicy('namerefs-later', ['let *']);

describe('namerefs to arrays', () => {
  const MAYBE = /may write to the block device \/dev\/sda/;
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // `declare -n r=m` (also `local -n`, `typeset -n`, chains) makes every read and write of r one
  // of m, from then on and whatever m holds later; a nameref to an element reads that element.
  it.each<Case>([
    ['declare -n r=m; m=(/dev/sda x); cat img > ${r[0]}', 'deny', DISK],
    ['declare -A h=([k]=/dev/sda); declare -n q=h; cat img > ${q[k]}', 'deny', DISK],
    ['f(){ local -n z=$1; tee "${z[1]}" < img; }; A=(x /dev/sda); f A', 'deny', DISK],
    ['A=(x /dev/sda); typeset -n t=A; declare -n u=t; tee "${u[1]}" < img', 'deny', DISK],
    ['declare -A h=([k]=/dev/sda); declare -n e="h[k]"; tee "$e" < img', 'deny', DISK],
    ['A=(x /dev/sda); declare -n e="A[1]"; tee "$e" < img', 'deny', DISK],
    ['declare -n R=OUT; OUT=/dev/sda; tee "$R" < img', 'deny', DISK],
    ['declare -n r=A; r[1]=/dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['declare -n r=m; declare -A m; r[k]=/dev/sda; tee "${m[k]}" < img', 'deny', DISK],
    ['declare -n r=A; mapfile -t r <<< /dev/sda; tee "${A[0]}" < img', 'deny', DISK],
    ['declare -n r=$X; r=/dev/sda; tee "$r" < img', 'deny', DISK],
    ['A=(/dev/sda x); declare -n r=A; tee "${r[$j]}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => roots.expectVerdict(entry));

  it.each([
    'OUT=/dev/sda; declare -n R=OUT; OUT=out.img; tee "$R" < img',
    'A=(/dev/sda y); declare -n r=A; r=(out.img); tee "${A[@]}" < img',
    'A=/dev/sda; declare -n r=A; unset r; tee "$A" < img',
    'declare -n a=b b=a; tee "$a" < img',
  ])('%j stays allowed', roots.allowedInDefault);
});

describe('namerefs whose target comes later', () => {
  const MAYBE = /may write to the block device \/dev\/sda/;
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  // `declare -n r` with no value: the first assignment to r names its target (`r=OUT`), every
  // later one writes the target. A value r had before `declare -n r` is its target at once, and
  // a `for` loop over a nameref names each word in turn.
  it.each<Case>([
    ['declare -n r; r=OUT; OUT=/dev/sda; tee "$r" < img', 'deny', DISK],
    ['declare -n r; r=OUT; r=/dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['local -n r 2>/dev/null; declare -n r; r=OUT; r=/dev/sda; cat img > $OUT', 'deny', DISK],
    ['f(){ local -n r; r=OUT; r=/dev/sda; }; f; tee "$OUT" < img', 'deny', DISK],
    ['r=OUT; declare -n r; OUT=/dev/sda; tee "$r" < img', 'deny', DISK],
    ['r=OUT; declare -n r; r=/dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['declare -n r; export r=OUT; r=/dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['declare -n r; r="A[1]"; r=/dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['declare -n r; printf -v r %s OUT; r=/dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['declare -n r; for r in OUT; do r=/dev/sda; done; tee "$OUT" < img', 'ask', MAYBE],
    ['declare -n r=X; for r in A B; do r=/dev/sda; done; tee "$B" < img', 'ask', MAYBE],
    // A nameref declared, or given its target, in a branch may name its target or nothing: its
    // reads and writes followed only one of the two (bash writes the disk when the branch ran).
    ['[ -e x ] && declare -n r=OUT; r=/dev/sda; tee "$OUT" < img', 'ask', /depends on a branch/],
    ['declare -n r; [ -e x ] && r=OUT; r=/dev/sda; tee "$OUT" < img', 'ask', /depends on a branch/],
    ['if [ -e x ]; then declare -n r=OUT; fi; OUT=/dev/sda; tee "$r" < img', 'ask', /depends on a branch/],
  ])('%j is %s', async (...entry) => arithmetic.expectVerdict(entry));

  it.each([
    'declare -n r; r=OUT; r=out.img; tee "$OUT" < img',
    'declare -n r; r=OUT; OUT=/dev/sda; r=out.img; tee "$OUT" < img',
    'declare -n r; r=OUT; r=/dev/sda; OUT=out.img; tee "$r" < img',
    'r=OUT; declare -n r; r=out.img; tee "$OUT" < img',
    'declare -n r=OUT; [ -e x ] && OUT=y; tee "$r" < img',
  ])('%j stays allowed', arithmetic.allowedInDefault);
});
