// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Brace expansion as bash does it (`/dev/sd{a,b}`, `{1..3}`, nested braces), the braces that stay
 * literal text, and the bounds on the words and the nesting it is followed to.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const devices = deviceWritePolicy('brace-expansion');
const deep = deviceWritePolicy('brace-expansion-deep', ['rm *', 'ls *']);

describe('brace expansion, as bash expands it', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(['echo {a,b}', 'tee out{1..3}.log < img', 'mkdir -p src/{lib,test}', 'cp notes.txt{,.bak}'])(
    '%j stays allowed',
    devices.allowedInDefault,
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
  ])('%j runs in bypass mode', devices.runsInBypass);
});

describe('braces nested thousands deep', () => {
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // Braces are matched in one pass over the word: past 64 levels of `{a,{a,...}}` the line is
  // asked at once (a bound on the work and the stack), and a `{` left open hides nothing after it.
  it('a brace expansion 16,000 levels deep is asked with the bound named', async () => {
    const decision = await deep.inBypass(`echo ${'{a,'.repeat(16_000)}b${'}'.repeat(16_000)}`);
    expect(decision.decision).toBe('ask');
    expect(decision.reason).toMatch(/nests deeper than 64 levels/);
  });

  it('20,000 braces left open do not hide the command after them', async () => {
    const decision = await deep.inBypass(`echo ${'{'.repeat(20_000)}; rm -rf /`);
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toMatch(RM);
  });

  it.each(['echo {a,{b,{c,d}}}', `echo ${'{a,'.repeat(60)}b${'}'.repeat(60)}`])(
    '%j stays allowed',
    deep.allowedInDefault,
  );
});
