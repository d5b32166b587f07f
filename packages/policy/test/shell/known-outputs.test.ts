// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * What commands print when the line shows it: command substitutions of `echo` and `printf` of
 * known words, and `cat` of a known standard input (a herestring, a static heredoc, `< <(echo
 * ...)`), also as the items `xargs -a <(...)` reads.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const devices = deviceWritePolicy('known-outputs');
const roots = deviceWritePolicy('known-outputs-cat', ['chmod *', 'chown *', 'chgrp *', 'mv *']);

describe('command substitutions whose output is static', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/(sda|sdb)/;
  const RUN_TIME = /named at run time/;
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'OUT=$(cat list.txt); tee "$OUT" < img',
    'OUT=$(echo out.img); tee "$OUT" < img',
    'OUT=$(printf %d 3); tee "$OUT" < img',
    'cp "$(echo /dev/sda)" backup.img',
    'tee "$(echo sda).img" < img',
    'OUT=$(echo /dev/sda); OUT=out.img; tee "$OUT" < img',
  ])('%j stays allowed', devices.allowedInDefault);
});

describe('known inputs read by cat and xargs -a', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
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
    // A file's content is not known: asked.
    ['echo /dev/sda > list; tee $(< list) < img', 'ask', /file_redirect is not analyzed/],
  ])('%j is %s', async (...entry) => roots.expectVerdict(entry));

  it.each([
    'tee $(cat <<< out.img) < img',
    'tee $(echo /dev/sda | cat <<< out.img) < img',
    'xargs -a <(echo out.img) tee < img',
    'xargs -a list.txt tee < img',
    'cp $(cat <<< /dev/sda) backup.img',
  ])('%j stays allowed', roots.allowedInDefault);
});
