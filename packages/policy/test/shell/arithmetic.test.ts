// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Values bash evaluates as arithmetic: what is assigned to an integer variable (`declare -i`),
 * and variables read by `$((X))`, `((X))`, an array index, `let` or `[[ X -eq 1 ]]`. A command
 * substitution in an array index inside such a value runs, so it is parsed and judged. Each
 * verdict matches what bash 5.2 does with the line (`echo` in place of `rm`).
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('arithmetic', ['let *']);

describe('integer variables', () => {
  const MAYBE = /may write to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  const ARITHMETIC = /evaluated as arithmetic/;
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

  // Arithmetic is searched for 64 syntax levels below a statement: a line with arithmetic nested
  // deeper (`[[ ( ( ... $X -eq 1 ) ) ]]`) is asked.
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
