// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Items a fourth round left: associative arrays, `mapfile`/`readarray` targets and the shell's
 * own `/proc/PID/cwd` and `/proc/PID/root`. Each line is judged in bypass mode under generous
 * allow rules, where anything neither denied nor asked runs; each verdict was checked against
 * what bash 5.2 does with the line (a file in place of the disk); near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('left-5');
const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
const MAYBE = /may write to the block device \/dev\/sda/;
const HEREDOC = (lines: string, after: string) => `${lines}\n/dev/sda\nEOF\n${after}`;

describe('associative arrays', () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'declare -A m=([k]=/dev/sda); tee "$m" < img',
    'f(){ declare -A m=([k]=/dev/sda); }; f; tee "${m[k]}" < img',
    'declare -A m=([k]=/dev/sda); m[k]=out.img; tee "${m[k]}" < img',
    'declare -A m=([k]=/dev/sda); cp "${m[k]}" backup.img',
    'declare -A m=([a]=x.img [b]=y.img); tee "${m[@]}" < img',
    'A=([1]=/dev/sda); tee "${A[0]}" < img',
  ])('%j stays allowed', allowedInDefault);
});

describe('mapfile and readarray', () => {
  it.each<Case>([
    ['mapfile -t A <<< "/dev/sda"; dd of=${A[0]} < img', 'deny', DISK],
    ['readarray A < <(echo /dev/sda); tee ${A[0]} < img', 'deny', DISK],
    [HEREDOC('mapfile -t A <<EOF', 'tee "${A[0]}" < img'), 'deny', DISK],
    [HEREDOC("mapfile -t A <<'EOF'", 'tee "${A[0]}" < img'), 'deny', DISK],
    ['mapfile -t A <<-EOF\n\t/dev/sda\n\tEOF\ntee "${A[0]}" < img', 'deny', DISK],
    ['mapfile -td, A <<< "x,/dev/sda"; tee ${A[1]} < img', 'deny', DISK],
    ['mapfile -d "" A < <(printf "/dev/sda\\0x\\0"); tee "${A[0]}" < img', 'deny', DISK],
    [HEREDOC('mapfile -t -s 1 A <<EOF\nx', 'tee "${A[0]}" < img'), 'deny', DISK],
    ['mapfile -t -n 1 A <<< $\'/dev/sda\\nx\'; tee "${A[@]}" < img', 'deny', DISK],
    ['A=(x y); mapfile -t -O 1 A <<< /dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['mapfile -t <<< /dev/sda; tee "${MAPFILE[0]}" < img', 'deny', DISK],
    ['echo /dev/sda | { mapfile -t A; tee "${A[0]}" < img; }', 'deny', DISK],
    ['readarray -t A < <(printf "%s\\n" x /dev/sda); cp img "${A[1]}"', 'deny', DISK],
    ['mapfile -t A <<< x; [ -e y ] && mapfile -t A <<< /dev/sda; tee "${A[0]}" < img', 'ask', MAYBE],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'mapfile -t A < list.txt; tee "${A[0]}" < img',
    'mapfile -t A <<< /dev/sda; mapfile -t A <<< x; tee "${A[0]}" < img',
    'mapfile -t -s 1 A <<< /dev/sda; tee "${A[0]}" < img',
    HEREDOC('mapfile -t -n 1 A <<EOF\nx', 'tee "${A[@]}" < img'),
    'A=(x y); mapfile -t -O 1 A <<< /dev/sda; tee "${A[0]}" < img',
    'mapfile -t A <<< /dev/sda; cp "${A[0]}" backup.img',
  ])('%j stays allowed', allowedInDefault);
});

describe("the shell's own /proc/PID/cwd and /proc/PID/root", () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'cd /tmp; tee /proc/$$/cwd/sda < img',
    'tee /proc/$BASHPID/cwd/out.img < img',
    'env -C /dev tee /proc/$$/cwd/sda < img',
  ])('%j stays allowed', allowedInDefault);
});
