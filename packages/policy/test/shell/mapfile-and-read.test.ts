// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * `mapfile`/`readarray` and `read` filled from a standard input the line shows (a herestring, a
 * heredoc, `< <(echo ...)`, an `echo` before them in a pipeline), and the callback of `mapfile
 * -C`. Each verdict matches what bash 5.2 does with the line (a file in place of the disk).
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const { expectVerdict, allowedInDefault } = deviceWritePolicy('mapfile-and-read');

describe('mapfile and readarray', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  const MAYBE = /may write to the block device \/dev\/sda/;
  const HEREDOC = (lines: string, after: string) => `${lines}\n/dev/sda\nEOF\n${after}`;
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

describe('the callback of mapfile and readarray', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // bash evaluates the -C text with the index and the line appended, every -c lines.
  it.each<Case>([
    ["mapfile -C 'rm -rf /' -c 1 A <<< x", 'deny', RM],
    ["readarray -C 'rm -rf /' A <<< x", 'deny', RM],
    ["mapfile -tC 'tee /dev/sda' A < list.txt", 'deny', DISK],
    ['mapfile -C "$CB" A <<< x', 'ask', /mapfile/],
    ["mapfile -C 'echo' -c 1 A <<< x", 'ask', /mapfile runs its callback/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));
});

describe('read from a standard input that is known', () => {
  const HEREDOC = (lines: string) => `read X <<END\n${lines}\nEND\ntee "$X" < img`;
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    ['read X < <(echo /dev/sda); tee "$X" < img', 'deny', DISK],
    [HEREDOC('/dev/sda'), 'deny', DISK],
    ['while read d; do tee "$d" < img; done <<< /dev/sda', 'deny', DISK],
    ['echo /dev/sda | { read X; tee "$X" < img; }', 'deny', DISK],
    ['read X <<< $\'/dev/sda\\nfoo\'; tee "$X" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  // read takes the first line only
  it.each([
    'read X < list.txt; tee "$X" < img',
    HEREDOC('out.img\n/dev/sda'),
    'read X < <(echo out.img); tee "$X" < img',
  ])('%j stays allowed', allowedInDefault);
});
