// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Items a sixth round left: relative names after `cd /` for the rules over system directories,
 * the shell's own task directories under /proc, known inputs read by `cat` and `xargs -a`,
 * parameter operations at run-time indexes, sparse arrays, and namerefs to arrays. Each line is
 * judged in bypass mode under generous allow rules (plus `chmod *`, `chown *`, `chgrp *`, `mv *`),
 * where anything neither denied nor asked runs; each verdict was checked against what bash 5.2
 * does with the line (a file in place of the disk or the system directory); near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('left-7', [
  'chmod *',
  'chown *',
  'chgrp *',
  'mv *',
]);
const MAYBE = /may write to the block device \/dev\/sda/;
const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
const ROOTS = /^destructive-file-operation: (ch(mod|own|grp) -R over|mv of) \//;

describe('relative names in the system directories', () => {
  // `cd / && chmod -R 777 .` is `chmod -R 777 /`: operands are placed in the working directory
  // the line leads to, and read with the values of the variables set before.
  it.each<Case>([
    ['cd / && chmod -R 777 .', 'deny', ROOTS],
    ['cd /; mv usr x', 'deny', ROOTS],
    ['cd /etc && chown -R nobody .', 'deny', ROOTS],
    ['pushd /; chmod -R 777 *', 'deny', ROOTS],
    ['cd /; chgrp -R staff etc', 'deny', ROOTS],
    ['cd /usr && chmod -R 777 ..', 'deny', ROOTS],
    ['cd /usr; mv -t /tmp ../var', 'deny', ROOTS],
    ['D=/usr; mv "$D" x', 'deny', ROOTS],
    ['D=/; chmod -R 777 $D', 'deny', ROOTS],
    ['cd /; D=usr; mv $D x', 'deny', ROOTS],
    ['cd /tmp || cd /; chmod -R 777 .', 'ask', /some expansions of its words match: chmod -R over \//],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'cd /tmp; chmod -R 777 .',
    'cd /; chown -R usr /srv/app',
    'cd /; chmod -R 755 srv/app',
    'cd /usr; mv local/x local/y',
    'D=/srv; chmod -R 777 "$D"',
    'chmod -R 777 .',
  ])('%j stays allowed', allowedInDefault);
});

describe("the shell's own threads under /proc", () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['echo x | tee /proc/$$/task/$$/fd/1', 'cd /dev; tee /proc/$$/task/$$/cwd/../../tmp/out < img'])(
    '%j stays allowed',
    allowedInDefault,
  );
});

describe('known inputs read by cat and xargs -a', () => {
  // `cat` (or `cat -`) prints a known standard input as it is: a herestring, a static heredoc,
  // `< <(echo ...)`, an `echo` before it in a pipeline; `xargs -a <(...)` reads its items there.
  it.each<Case>([
    ['tee $(cat <<< /dev/sda) < img', 'deny', DISK],
    ['tee "$(cat <<< /dev/sda)" < img', 'deny', DISK],
    ["tee $(cat <<'EOF'\n/dev/sda\nEOF\n) < img", 'deny', DISK],
    ['tee $(cat < <(echo /dev/sda)) < img', 'deny', DISK],
    ['tee $(echo /dev/sda | cat | cat -) < img', 'deny', DISK],
    ['tee $(echo x | cat <<< /dev/sda) < img', 'deny', DISK],
    ['D=$(cat <<< /dev/sda); dd if=img of=$D', 'deny', DISK],
    ['xargs -a <(echo /dev/sda) tee < img', 'deny', DISK],
    ['xargs --arg-file <(printf "%s\\n" x /dev/sda) tee < img', 'deny', DISK],
    ['xargs -0 -a <(printf "%s\\0" /dev/sda) tee < img', 'deny', DISK],
    ['xargs -a <(echo sda) -I% cp img /dev/%', 'deny', DISK],
    ['while read d; do tee $d < img; done < <(cat <<< /dev/sda)', 'deny', DISK],
    // A file's content is not known: asked as before.
    ['echo /dev/sda > list; tee $(< list) < img', 'ask', /file_redirect is not analyzed/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'tee $(cat <<< out.img) < img',
    'tee $(echo /dev/sda | cat <<< out.img) < img',
    'xargs -a <(echo out.img) tee < img',
    'xargs -a list.txt tee < img',
    'cp $(cat <<< /dev/sda) backup.img',
  ])('%j stays allowed', allowedInDefault);
});

describe('elements at run-time indexes and arithmetic that assigns', () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'A=(x y); tee "${A[$j]}" < img',
    'A=(x y); for ((i=0;i<2;i++)); do tee "${A[$i]}" < img; done',
    'A=(/dev/sda); cp "${A[$j]}" backup.img',
    'OUT=out.img; ((n++)); tee "$OUT" < img',
    'i=1; [[ $i == 1 ]] && A=(out.img x); tee "${A[0]}" < img',
  ])('%j stays allowed', allowedInDefault);
});

describe('namerefs to arrays', () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'OUT=/dev/sda; declare -n R=OUT; OUT=out.img; tee "$R" < img',
    'A=(/dev/sda y); declare -n r=A; r=(out.img); tee "${A[@]}" < img',
    'A=/dev/sda; declare -n r=A; unset r; tee "$A" < img',
    'declare -n a=b b=a; tee "$a" < img',
  ])('%j stays allowed', allowedInDefault);
});

describe('sparse arrays keep their indexes', () => {
  // The indexes of a sparse array are followed: an element set, unset or appended later goes in
  // its place, as bash puts it (`A=([5]=x); A+=(y)` puts y at 6).
  it.each<Case>([
    ['A=([5]=x); A+=(/dev/sda); tee "${A[6]}" < img', 'deny', DISK],
    ['A=([1]=x [5]=/dev/sda); A[1]=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(a); A[3]=/dev/sda; A[1]=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=([2]=/dev/sda); A=y; tee "${A[@]}" < img', 'deny', DISK],
    ['A=([2]=x); A=/dev/sda; tee "${A[0]}" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'A=(x y /dev/sda); unset "A[1]"; A[2]=z; tee "${A[@]}" < img',
    'A=([1]=/dev/sda [5]=x); A[1]=y; tee "${A[@]}" < img',
    'A=(x /dev/sda); unset "A[0]"; A+=(y); tee "${A[2]}" < img',
    'A=([0]=/dev/sda [2]=x); A=y; tee "${A[@]}" < img',
    'A=(a); A[3]=/dev/sda; A[3]=y; tee "${A[@]}" < img',
    'A=(x /dev/sda y); unset "A[1]"; unset "A[1]"; tee "${A[@]}" < img',
    'A=([1]=x [5]=/dev/sda); unset "A[5]"; tee "${A[@]}" < img',
  ])('%j stays allowed', allowedInDefault);
});
