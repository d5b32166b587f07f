// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Items a seventh round left: namerefs whose target is given after the declaration, and the
 * integer attribute (`declare -i`), whose assignments bash evaluates as arithmetic. Each line is
 * judged in bypass mode under generous allow rules (plus `let *`), where anything neither denied
 * nor asked runs; each verdict was checked against what bash 5.2 does with the line (a file in
 * place of the disk, `echo` in place of `rm`); near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('left-8', ['let *']);
const MAYBE = /may write to the block device \/dev\/sda/;
const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
const RM = /^destructive-file-operation: rm with recursive and force flags/;
const ARITHMETIC = /evaluated as arithmetic/;

describe('namerefs whose target comes later', () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'declare -n r; r=OUT; r=out.img; tee "$OUT" < img',
    'declare -n r; r=OUT; OUT=/dev/sda; r=out.img; tee "$OUT" < img',
    'declare -n r; r=OUT; r=/dev/sda; OUT=out.img; tee "$r" < img',
    'r=OUT; declare -n r; r=out.img; tee "$OUT" < img',
    'declare -n r=OUT; [ -e x ] && OUT=y; tee "$r" < img',
  ])('%j stays allowed', allowedInDefault);
});

describe('integer variables', () => {
  // `declare -i n` (also `local -i`, `typeset -i`, `-ai`): every value assigned to n is evaluated
  // as arithmetic, so `n+=0` adds, and a command substitution in an array index inside the value
  // runs. The same holds for a variable read by arithmetic (`$((X))`, `((X))`, `A[X]`, `let X`,
  // `[[ X -eq 1 ]]`): its value is evaluated as an expression in turn.
  it.each<Case>([
    ['A=(x /dev/sda); declare -i i=1; i+=0; tee "${A[i]}" < img', 'ask', MAYBE],
    ['declare -i n; n="a[\\$(rm -rf /)]"', 'deny', RM],
    ["declare -i n; n='a[$(rm -rf /)]'", 'deny', RM],
    ["declare -i n='a[`rm -rf /`]'", 'deny', RM],
    ["local -i n 2>/dev/null; typeset -i n; n='a[$(rm -rf /)]'", 'deny', RM],
    ["declare -ai A; A[0]='a[$(rm -rf /)]'", 'deny', RM],
    ["declare -i n; read n <<< 'a[$(rm -rf /)]'", 'deny', RM],
    ["declare -i n; for n in 'a[$(rm -rf /)]'; do :; done", 'deny', RM],
    ["X='a[$(rm -rf /)]'; echo $((X))", 'deny', RM],
    ["X='a[$(rm -rf /)]'; (( X ))", 'deny', RM],
    ["X='a[$(rm -rf /)]'; A[X]=1", 'deny', RM],
    ["X='a[$(rm -rf /)]'; let X", 'deny', RM],
    ["X='a[$(rm -rf /)]'; echo ${A[$X]}", 'deny', RM],
    ["X='a[$(rm -rf /)]'; [[ $X -eq 1 ]]", 'deny', RM],
    ["Y='a[$(rm -rf /)]'; X=Y; echo $((X))", 'deny', RM],
    ["declare -i n; n='a[$(echo x)]'", 'ask', ARITHMETIC],
    ["X='a[$(ls)]'; echo $((X + 1))", 'ask', ARITHMETIC],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  // The search for arithmetic below a statement stopped silently 64 syntax levels down: deeper
  // arithmetic (`[[ ( ( ... $X -eq 1 ) ) ]]`) was neither judged nor forgotten. Now it is asked.
  it.each<Case>([
    [`X='a[$(rm -rf /)]'; [[ ${'( '.repeat(70)}$X -eq 1${' )'.repeat(70)} ]]`, 'ask', /follows/],
    [
      `i=0; A=(x /dev/sda); [[ ${'( '.repeat(70)}$((i++)) -eq 0${' )'.repeat(70)} ]]; tee "\${A[i]}" < img`,
      'ask',
      /follows/,
    ],
  ])('arithmetic 70 levels down in %j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'declare -i n; n=1+2; echo $n',
    'declare -i i=0; A=(out.img /dev/sda); tee "${A[i]}" < img',
    'X=\'$(ls)\'; echo "$X"',
    'X=3; echo $((X + 1))',
    "X='a[1]'; [ \"$X\" = 'a[1]' ]",
  ])('%j stays allowed', allowedInDefault);
});
