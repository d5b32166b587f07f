// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Items a third round left: device targets that come from a command substitution whose output
 * is static, from arrays, and from the literal input of xargs. Each line is judged in bypass
 * mode under generous allow rules, where anything neither denied nor asked runs; the near
 * misses must stay allowed in the default mode.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('left-3');
const DISK = /^disk-destruction: writes to the block device \/dev\/(sda|sdb)/;
const RUN_TIME = /named at run time/;

describe('command substitutions whose output is static', () => {
  it.each<Case>([
    ['dd of=$(echo /dev/sda) < img', 'deny', DISK],
    ['tee $(echo /dev/sda) < img', 'deny', DISK],
    ['tee "$(echo /dev/sda)" < img', 'deny', DISK],
    ['tee `echo /dev/sda` < img', 'deny', DISK],
    ['OUT=$(printf /dev/sda); tee "$OUT" < img', 'deny', DISK],
    ['OUT=$(printf \'%s\\n\' /dev/sda); tee "$OUT" < img', 'deny', DISK],
    ['OUT=`echo /dev/sda`; tee "$OUT" < img', 'deny', DISK],
    ['OUT=$(echo -n /dev/sda); cp img "$OUT"', 'deny', DISK],
    ['D=/dev/sda; tee "$(echo "$D")" < img', 'deny', DISK],
    ['tee $(echo out.img /dev/sdb) < img', 'deny', DISK],
    ['tee "$(echo $(echo /dev/sda))" < img', 'deny', DISK],
    ['OUT="$(printf %s%s /dev/ sda)"; echo x > "$OUT"', 'deny', DISK],
    ['OUT=$(echo -e \'\\x2fdev/sda\'); tee "$OUT" < img', 'deny', DISK],
    ['for d in $(echo /dev/sda /dev/sdb); do cp img "$d"; done', 'deny', DISK],
    ['OUT=$(echo /dev/$NAME); tee "$OUT" < img', 'ask', RUN_TIME],
    ['tee /dev/$(echo sda) < img', 'deny', DISK],
    // output nested deeper than is worked out makes the line asked, not unknown
    [`tee ${'$(echo '.repeat(10)}/dev/sda${')'.repeat(10)} < img`, 'ask', /more variables, values/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'OUT=$(cat list.txt); tee "$OUT" < img',
    'OUT=$(echo out.img); tee "$OUT" < img',
    'OUT=$(printf %d 3); tee "$OUT" < img',
    'cp "$(echo /dev/sda)" backup.img',
    'tee "$(echo sda).img" < img',
    'OUT=$(echo /dev/sda); OUT=out.img; tee "$OUT" < img',
  ])('%j stays allowed', allowedInDefault);
});

describe('arrays', () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'A=(out.img); tee "${A[0]}" < img',
    'A=(/dev/sda out.img); tee "${A[1]}" < img',
    'A=(/dev/sda); cp "${A[@]}" backup.img',
    'A=(/dev/sda); A=(out.img); tee "${A[@]}" < img',
    'A=(/dev/sda); unset A; tee "${A[@]}" < img',
    'f(){ local -a A=(/dev/sda); }; f; tee "${A[0]}" < img',
    'A=(/dev/sda x.img); A[0]=y.img; tee "${A[0]}" < img',
  ])('%j stays allowed', allowedInDefault);
});
describe('literal input of xargs', () => {
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
