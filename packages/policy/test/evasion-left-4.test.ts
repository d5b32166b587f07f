// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * Ways to hide a destructive command from the default rules that a fourth sweep found open,
 * with their near misses: judged in bypass mode under generous allow rules (see
 * `device-write-cases.ts`); near misses stay allowed in the default mode or run in bypass mode.
 */
const { expectVerdict, allowedInDefault, runsInBypass, askedInBypass } = deviceWritePolicy('evasion-4');
const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
const RM = /^destructive-file-operation: rm with recursive and force flags/;

describe('brace expansion, as bash expands it', () => {
  it.each<Case>([
    ['tee /dev/sd{a,b} < img', 'deny', DISK],
    ['tee /dev/sd{x,b} < img', 'deny', DISK],
    ['dd if=x of=/dev/sd{a..c}', 'deny', DISK],
    ['cp img /dev/sd{z..a..5}', 'deny', DISK],
    ['rm -rf /{etc,usr}', 'deny', RM],
    ['rm -{rf,v} /', 'deny', RM],
    ['sudo {rm,-rf} /', 'deny', RM],
    ['{rm,-rf} /', 'ask', /does not parse/],
    ['tee /dev/{tmp,s{d{a,b},r0}} < img', 'deny', DISK],
    ['tee /{dev,tmp}/sda < img', 'deny', DISK],
    ['tee {"/dev/sda",x} < img', 'deny', DISK],
    ["tee {x,'/dev/'sda} < img", 'deny', DISK],
    ['tee /dev/sd{a,$(echo q)} < img', 'deny', DISK],
    ['D=sda; tee /dev/{x,$D} < img', 'deny', DISK],
    ['D=sda; tee /dev/{$D,x} < img', 'ask', /the parser splits a word that bash reads as one/],
    ['for d in /dev/sd{a,b}; do tee "$d" < img; done', 'deny', DISK],
    ['A=(/dev/sd{a,b}); tee "${A[1]}" < img', 'deny', DISK],
    ['tee $(echo /dev/sd{a,b}) < img', 'deny', DISK],
    ['tee x{1..100000} < img', 'ask', /brace expansion/],
    ['tee {1..9}{1..9}{1..9}{1..9} < img', 'ask', /brace expansion/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['echo {a,b}', 'tee out{1..3}.log < img', 'mkdir -p src/{lib,test}', 'cp notes.txt{,.bak}'])(
    '%j stays allowed',
    allowedInDefault,
  );

  it.each([
    // Quoted or escaped braces, `${...}` and braces that open no expansion are literal text.
    'tee "{/dev/sda,x}" < img',
    "tee '{/dev/sda,x}' < img",
    'tee \\{/dev/sda,x\\} < img',
    'tee {/dev/sda\\,x} < img',
    'tee {/dev/sda} < img',
    'tee {/dev/sda..} < img',
    'tee {/dev/sda < img',
    'tee ${X:-{/dev/sda,x}} < img',
    // `$D{a,b}` is `$Da $Db`: variables that are not set.
    'D=/dev/sd; tee x$D{a,b} < img',
    'D=/dev/sd; for f in $D{a,b}; do tee "x$f" < img; done',
  ])('%j runs in bypass mode', runsInBypass);
});

describe('/proc/self/cwd and descriptors opened earlier in the line', () => {
  it.each<Case>([
    ['cd /dev; tee /proc/self/cwd/sda < img', 'deny', DISK],
    ['cd /dev && cp img /proc/thread-self/cwd/./sda', 'deny', DISK],
    ['cd /; echo x > /proc/self/cwd/dev/sda', 'deny', DISK],
    ['tee /proc/self/cwd/../../dev/sda < img', 'ask', /depending on the working directory/],
    ['exec 3</dev/sda; echo x > /dev/fd/3', 'deny', DISK],
    ['exec 3</dev/sda; tee /proc/self/fd/3 < img', 'deny', DISK],
    ['exec 4< /dev/sda 5<img; cp img /dev/fd/4', 'deny', DISK],
    ['tee /dev/stdin < /dev/sda', 'deny', DISK],
    ['cp img /dev/fd/0 < /dev/sda', 'deny', DISK],
    ['dd if=img of=/proc/self/fd/0 < /dev/sda', 'deny', DISK],
    ['exec 3</dev/sda && tee /dev/fd/3 < img', 'deny', DISK],
    ['true && exec 3</dev/sda; tee /dev/fd/3 < img', 'ask', /may write to the block device \/dev\/sda/],
    ['[ -b x ] && exec 3</dev/sda; tee /dev/fd/3 < img', 'ask', /may write to the block device \/dev\/sda/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'cd /tmp; tee /proc/self/cwd/sda < img',
    'exec 3>out.log; echo x > /dev/fd/3',
    'echo x > /dev/stdout',
    'echo x > /dev/fd/2',
    'tee /dev/stdin < img',
    'exec 3</dev/sda; exec 3<img; tee /dev/fd/3 < img',
    'exec 3</dev/sda 3<&-; tee /dev/fd/3 < img',
    // Like `tee sda`: the directory the line starts in is not judged.
    'tee /proc/self/cwd/sda < img',
    'tee /dev/fd/7 < img',
  ])('%j runs in bypass mode', runsInBypass);
});

describe('aliases defined in the line', () => {
  // bash expands an alias only in a command read after the line that defines it, and in a
  // non-interactive shell only once `shopt -s expand_aliases` ran; a shell that keeps running
  // (a terminal an agent types into) expands it in its later commands. A static alias body is
  // judged where it is defined, and a later use with the words after it.
  it.each<Case>([
    ["alias x='dd of=/dev/sda'; x if=img", 'deny', DISK],
    ["alias x='tee /dev/sda'", 'deny', DISK],
    ["shopt -s expand_aliases\nalias x='rm -rf'\nx /", 'deny', RM],
    ["alias x='rm -rf' y=ls; y; x / ", 'deny', RM],
    ["alias x='cp img'; x /dev/sda", 'deny', DISK],
    ['alias x=\'cp img\'; x "$D"', 'ask', /alias/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(["alias ll='ls -l'; ll /tmp", "alias x='cp img'; x out.img"])(
    '%j is asked, not denied',
    askedInBypass,
  );
});

describe('descriptors and home directories reached other ways', () => {
  it.each<Case>([
    ['ln -s /dev/stdin x; tee x < /dev/sda', 'deny', DISK],
    ['cd /dev; tee stdin < /dev/sda', 'deny', DISK],
    ['cd /dev/fd; tee 3 3</dev/sda', 'deny', DISK],
    ['cd /proc/self/fd; cp img 0 < /dev/sda', 'deny', DISK],
    ['exec 0</dev/sda; tee /dev/stdin', 'deny', DISK],
    ['tee /dev/stdout 1</dev/sda', 'deny', DISK],
    ['tee ~root/../dev/sda < img', 'ask', /depending on the home directory/],
    ['cp img ~/../../dev/sda', 'ask', /depending on the home directory/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['tee ~/notes.txt < img', 'cp img ~root/../tmp/x', "tee '~root'/x < img"])(
    '%j runs in bypass mode',
    runsInBypass,
  );
});

describe('time and ! before a compound command', () => {
  // The grammar reads `time {` and `! {` as a command named `time` or `{`; bash runs the group.
  it.each<Case>([
    ['time { rm -rf /; }', 'deny', RM],
    ['time -p { tee /dev/sda; } < img', 'deny', DISK],
    ['! { rm -rf /; }', 'deny', RM],
    ['time while true; do rm -rf /; done', 'deny', RM],
    ['time ! { rm -rf /; }', 'deny', RM],
    ['time { tee /dev/stdin; } < /dev/sda', 'deny', DISK],
    ['echo é; time if true; then rm -rf /; fi', 'deny', RM],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['time { echo x; }', '! { echo x; }', 'time ls'])('%j runs in bypass mode', runsInBypass);
});

describe('functions called with descriptors open', () => {
  it.each<Case>([
    ['f(){ tee /dev/stdin; }; f < /dev/sda', 'deny', DISK],
    ['f(){ cp img /dev/fd/3; }; exec 3</dev/sda; f', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['f(){ tee /dev/stdin; }; f < img', 'f(){ tee /dev/stdin; }; f'])(
    '%j runs in bypass mode',
    runsInBypass,
  );
});
