// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Ways to hide a destructive command from the default rules that a fifth sweep found open, with
 * their near misses: judged in bypass mode under generous allow rules (see
 * `device-write-cases.ts`); each verdict was checked against what bash 5.2 does with the line.
 */
const { expectVerdict, allowedInDefault, runsInBypass } = deviceWritePolicy('evasion-5');
const HEREDOC = (lines: string) => `read X <<END\n${lines}\nEND\ntee "$X" < img`;
const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
const RM = /^destructive-file-operation: rm with recursive and force flags/;

describe('words that expand into several arguments', () => {
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
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['A=(/dev/sda img); cp "${A[@]}"', 'X="a.txt b.txt"; cp $X', 'A=(-v x.img); cp "${A[@]}" out.img'])(
    '%j stays allowed',
    allowedInDefault,
  );
});

describe('the callback of mapfile and readarray', () => {
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

describe('files find writes by itself', () => {
  // find opens the file of -fprint, -fprint0, -fprintf and -fls for writing, match or not.
  it.each<Case>([
    ['find / -fprint /dev/sda', 'deny', DISK],
    ['find . -name x -fprint0 /dev/sda', 'deny', DISK],
    ["find / -fprintf /dev/sda '%p'", 'deny', DISK],
    ['find / -fls /dev/sda', 'deny', DISK],
    ['cd /dev; find / -fprint sda', 'deny', DISK],
    ['find / -fprint /dev/$DISK', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['find . -fprint list.txt', 'find . -name -fprint', "find . -printf '%p' -print"])(
    '%j stays allowed',
    allowedInDefault,
  );
});

describe('files an awk program writes', () => {
  it.each<Case>([
    ['awk \'BEGIN { print "x" > "/dev/sda" }\'', 'deny', DISK],
    ['awk \'{ printf "%s", $0 >> "/dev/sda" }\' img', 'deny', DISK],
    ['gawk \'{ print; print $0 > "/dev/sda" }\' img', 'deny', DISK],
    ["awk '{ print > $1 }' img", 'ask', /awk program writes to a file named at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['awk \'{ print > "out.txt" }\' img', "awk 'NR > 1 { print }' img", "awk '{ print $1 }' img"])(
    '%j runs in bypass mode',
    runsInBypass,
  );
});

describe('more programs that write a device or wipe one', () => {
  const WIPES = /^disk-destruction: /;
  it.each<Case>([
    ['uniq img /dev/sda', 'deny', DISK],
    ['uniq -f 1 img /dev/sda', 'deny', DISK],
    ['openssl enc -in img -out /dev/sda', 'deny', DISK],
    ['socat -u FILE:img FILE:/dev/sda', 'deny', DISK],
    ['socat - OPEN:/dev/sda,wronly < img', 'deny', DISK],
    ['pv -o /dev/sda img', 'deny', DISK],
    ['pv img --output /dev/sda', 'deny', DISK],
    ['ddrescue -f img /dev/sda', 'deny', DISK],
    ['badblocks -w /dev/sda', 'deny', WIPES],
    ['cryptsetup luksFormat /dev/sda', 'deny', WIPES],
    ['cryptsetup -q --type luks2 luksFormat /dev/sda', 'deny', WIPES],
    ['cryptsetup erase /dev/sda', 'deny', WIPES],
    ['sg_format --format /dev/sda', 'deny', WIPES],
    ['zpool labelclear -f /dev/sda', 'deny', WIPES],
    ['flashrom -p internal -w image.rom', 'deny', /^system-control: flashrom/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'uniq img out.txt',
    'uniq -c img',
    'openssl enc -in img -out out.bin',
    'socat -u FILE:/dev/sda FILE:backup.img',
    'pv img -o out.img',
    'ddrescue img /dev/sda',
    'badblocks -n /dev/sda',
    'badblocks /dev/sda',
    'cryptsetup status root',
    'sg_format /dev/sda',
    'zpool status',
    'flashrom -p internal -r backup.rom',
  ])('%j runs in bypass mode', runsInBypass);
});

describe('scripts with a known text fed to a shell or to source', () => {
  // Still asked (the text is produced at run time), but a deny rule inside denies.
  it.each<Case>([
    ["echo 'rm -rf /' | sh", 'deny', RM],
    ["sh < <(echo 'rm -rf /')", 'deny', RM],
    ["bash <(echo 'rm -rf /')", 'deny', RM],
    ["source <(echo 'tee /dev/sda < img')", 'deny', DISK],
    [". <(echo 'rm -rf /')", 'deny', RM],
    ["source /dev/stdin <<< 'rm -rf /'", 'deny', RM],
    ["bash -s <<< 'tee /dev/sda < img'", 'deny', DISK],
    ["echo 'ls' | sh", 'ask', /text produced at run time is run by sh/],
    ["source <(echo 'ls')", 'ask', /text produced at run time is run by source/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));
});

describe('file-name patterns in a written target', () => {
  // bash writes every file the pattern matches (a pattern that matches nothing stays literal).
  const MATCHES = /^disk-destruction: writes to the block device \/dev\/sda \(the pattern/;
  it.each<Case>([
    ['tee /dev/* < img', 'deny', MATCHES],
    ['tee /dev/?da < img', 'deny', MATCHES],
    ['tee /dev/[s]da < img', 'deny', MATCHES],
    ['tee /d[e]v/sda < img', 'deny', MATCHES],
    ['tee /*/sda < img', 'deny', MATCHES],
    ['cd /dev; tee [s]da < img', 'deny', MATCHES],
    ['cp img /dev/s[!x]a', 'deny', MATCHES],
    ['echo x > /proc/sysrq-trig*', 'deny', /^system-control: /],
    ['tee /dev/tty[0-9] < img', 'ask', /pattern names under \/dev/],
    // more wildcards than are matched (each one multiplies the work): asked
    [`tee /dev/${'*'.repeat(2000)}x < img`, 'ask', /writes to files a pattern names/],
    [`tee /${'*/'.repeat(500)}x < img`, 'ask', /writes to files a pattern names/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['tee out*.log < img', 'tee /tmp/*.log < img', 'tee "/dev/[s]da" < img', 'tee /dev/null < img'])(
    '%j runs in bypass mode',
    runsInBypass,
  );
});

describe('env -S, which splits its string into a command', () => {
  // Still asked (env splits the string by rules of its own), but a deny rule inside denies.
  it.each<Case>([
    ["env -S 'rm -rf /'", 'deny', RM],
    ['env -S"tee /dev/sda" < img', 'deny', DISK],
    ["env -iS 'rm -rf /'", 'deny', RM],
    ["env --split-string='rm -rf /'", 'deny', RM],
    ["env -S 'tee' /dev/sda < img", 'deny', DISK],
    ["env -S 'ls -l'", 'ask', /the -S option of this wrapper is not followed/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));
});
