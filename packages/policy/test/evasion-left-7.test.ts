// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * What a seventh sweep, as a hostile user of the default rules, found open. Judged in bypass mode
 * under generous allow rules, where anything neither denied nor asked runs; each verdict was
 * checked against what bash 5.2 does with the line; near misses stay as they were.
 */
const { expectVerdict, askedInBypass, runsInBypass } = deviceWritePolicy('left-7-sweep', ['sort *', 'rm *']);
const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
const RM = /^destructive-file-operation: rm with recursive and force flags/;

describe('heredoc bodies passed on by cat to a shell', () => {
  // `cat <<EOF | sh`: cat prints the static body, which the shell runs (parsed as `echo ... | sh` is).
  it.each<Case>([
    ['cat <<EOF | sh\nrm -rf /\nEOF', 'deny', RM],
    ['cat <<EOF | cat | bash\nrm -rf /\nEOF', 'deny', RM],
    ["cat <<'EOF' | bash\ndd if=img of=/dev/sda\nEOF", 'deny', DISK],
    ['cat <<< "rm -rf /" | cat - | sh', 'deny', RM],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['cat <<EOF | sh\nls\nEOF', 'cat <<EOF | sh\n$X\nEOF', 'sort <<EOF | sh\nrm -rf /\nEOF'])(
    '%j stays asked',
    askedInBypass,
  );
});

describe('what a function called with arguments sets', () => {
  // The body walked again with the call's arguments leaves its changes (its `local` names and the
  // caller's positional parameters aside), as a call without arguments always did.
  it.each<Case>([
    ['f(){ OUT=$1; }; f /dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['f(){ cd "$1"; }; f /dev; tee sda < img', 'deny', DISK],
    ['f(){ A=("$@"); }; f x /dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['set -- /dev/sda; f(){ OUT=$1; }; f x; tee "$1" < img', 'deny', DISK],
    ['f(){ declare -gn G=$1; }; f OUT; OUT=/dev/sda; tee "$G" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'f(){ local OUT=$1; }; OUT=out.img; f /dev/sda; tee "$OUT" < img',
    'f(){ OUT=$1; }; f out.img; tee "$OUT" < img',
    'set -- out.img; f(){ OUT=$1; }; f /dev/sda; tee "$1" < img',
  ])('%j runs in bypass mode', runsInBypass);
});

describe('the positional parameters of sh -c', () => {
  // `sh -c SCRIPT NAME ARG...`: the script's `$1`, `"$@"` are the words after its name.
  it.each<Case>([
    ['sh -c \'tee "$1"\' _ /dev/sda < img', 'deny', DISK],
    ['OUT=/dev/sda; sh -c \'tee $1\' _ "$OUT" < img', 'deny', DISK],
    ['bash -c \'tee "$@"\' sh x /dev/sda < img', 'deny', DISK],
    ['bash -c \'tee "$0"\' /dev/sda < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'sh -c \'tee "$1"\' _ out.img < img',
    'set -- /dev/sda; bash -c \'tee "$1"\' < img',
    'bash -c \'tee "$0"\' out.img < img',
  ])('%j runs in bypass mode', runsInBypass);
});

describe('bounds on the new work', () => {
  // Lines built to make the analysis follow too much are asked (their timing is measured in a
  // scratch script, not here).
  const sparse = `A=([1]=x); ${Array.from({ length: 300 }, (_, at) => `A[${at * 3}]=y;`).join(' ')} tee "\${A[@]}" < img`;
  const namerefs = `${Array.from({ length: 300 }, (_, at) => `declare -n r${at}=r${at + 1};`).join(' ')} tee "$r0" < img`;
  const elements = `A=(${Array.from({ length: 100 }, (_, at) => `v${at}`).join(' ')}); tee "\${A[$j]}" < img`;
  it.each([sparse, namerefs, elements])('a line of %# is asked', async (command) => {
    await askedInBypass(command);
  });
});
