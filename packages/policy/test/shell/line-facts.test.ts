// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine, loadShellParser } from '../../src/index.js';
import { type Case, bash, call, deviceWritePolicy, expectGateRefuses } from '../helpers.js';

/**
 * Device targets reached through what earlier commands of the line set up: variables, the
 * working directory, links and device nodes, functions and their arguments, and the positional
 * parameters; with the near misses that must stay allowed, accept-edits placement, and the
 * bounds on the work they cause. Each line is judged in bypass mode under generous allow rules,
 * where anything that is neither denied nor asked runs.
 */
const { policy, expectVerdict, allowedInDefault, runsInBypass, inBypass, inDefault } =
  deviceWritePolicy('line-facts');
const calls = deviceWritePolicy('line-facts-calls', ['sort *', 'rm *']);

describe('device targets named through variables set earlier in the line', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/(sda|sdb|nvme0n1)/;
  const MAYBE = /may write to the block device/;
  it.each<Case>([
    ['OUT=/dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['D=/dev/nvme0n1 && dd if=x of=$D', 'deny', /^disk-destruction: /],
    ['D=/dev/nvme0n1 && dd of=$D < x', 'deny', DISK],
    ['export T=/dev/sda; cp x "$T"', 'deny', DISK],
    ['declare -r OUT=/dev/sdb; echo x > "$OUT"', 'deny', DISK],
    ['DISK=sda; tee /dev/$DISK < img', 'deny', DISK],
    ['D=/dev; cp img "${D}/sda"', 'deny', DISK],
    ['D=/dev; D+=/sda; tee $D < img', 'deny', DISK],
    ['A=/dev/sda; B=$A; tee "$B" < img', 'deny', DISK],
    ['OUTS="log.txt /dev/sda"; echo x | tee $OUTS', 'deny', DISK],
    ['OUT=/dev/mem; echo x > $OUT', 'deny', /^system-control: writes to \/dev\/mem/],
    ['for d in /dev/sda /dev/sdb; do cp img "$d"; done', 'deny', DISK],
    ['OUT=/dev/sda; OUT=notes.txt tee "$OUT" < img', 'deny', DISK],
    ['OUT=/dev/sda; curl -so "$OUT" https://example.test/image', 'deny', DISK],
    ['OUT=/dev/sda; wget --output-document="$OUT" https://example.test/image', 'deny', DISK],
    ['D=/dev; tar -cf "$D/sda" .', 'deny', DISK],
    ['OUT=/dev/sda; curl -so"$OUT" https://example.test/image', 'deny', DISK],
    ['curl --output="/dev/$DISK" https://example.test/image', 'ask', /named at run time/],
    ['sort -o"/dev/$DISK" list.txt', 'ask', /named at run time/],
    // other ways to set a variable: a name reference, printf -v, read from a herestring
    ['OUT=/dev/sda; declare -n R=OUT; tee "$R" < img', 'deny', DISK],
    ['printf -v OUT %s /dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['printf -v OUT /dev/sda; cp img "$OUT"', 'deny', DISK],
    ['read -r OUT <<< /dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['read -r A B <<< "x.img /dev/sda"; tee "$B" < img', 'deny', DISK],
    // a child shell sees what its parent set (and what is set in front of it)
    ['export OUT=/dev/sda; sh -c \'tee "$OUT" < img\'', 'deny', DISK],
    ['OUT=/dev/sda sh -c \'tee "$OUT" < img\'', 'deny', DISK],
    ['OUT=/dev/sda; sudo tee "$OUT" < img', 'deny', DISK],
    // several values are possible: some of them a device
    ['OUT=/dev/sda; [ -e x ] && OUT=out.img; tee "$OUT" < img', 'ask', MAYBE],
    ['OUT=out.img; if [ -b /dev/sda ]; then OUT=/dev/sda; fi; tee "$OUT" < img', 'ask', MAYBE],
    ['OUT=/dev/$NAME; tee "$OUT" < img', 'ask', /named at run time/],
    // a script whose only possible text is known is read, and still asked when it passes
    ['OUT=/dev/sda; sh -c "tee $OUT" < img', 'deny', DISK],
    ['CMD="tee /dev/sda"; eval "$CMD" < img', 'deny', DISK],
    ['CMD=\'rm -rf /\'; bash -c "$CMD"', 'deny', /^destructive-file-operation/],
    ['CMD=ls; eval "$CMD"', 'ask', /eval of text computed at run time/],
    ['OUT=out.img; sh -c "tee $OUT" < img', 'ask', /computed at run time/],
    ['CMD="tee /dev/sda"; [ -e x ] && CMD=ls; eval "$CMD" < img', 'ask', /computed at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'OUT=out.img; tee "$OUT" < img',
    'OUT=/dev/sda; OUT=out.img; tee "$OUT" < img',
    'D=/dev/sda; cp "$D" backup.img',
    'D=/dev/sda; ls -l "$D"',
    'OUT=/dev/sda; read -r OUT < names.txt; tee "$OUT" < img',
    'OUT=/dev/sda; printf -v OUT "%s.img" disk; tee "$OUT" < img',
    'curl --output="$OUT" https://example.test/',
    'curl -sL"$FLAGS" https://example.test/',
    '(OUT=/dev/sda); tee "$OUT" < img',
    'f(){ local OUT=/dev/sda; ls "$OUT"; }; tee "$OUT" < img',
    'for d in a.txt b.txt; do cp img "$d"; done',
    // a value from the environment stays what it was: a file like any other for tee and cp
    'tee "$OUT" < img',
    'cp img "$DEST"',
  ])('%j stays allowed', allowedInDefault);

  it('more variables or possible values than are followed make the line asked', async () => {
    const many = Array.from({ length: 300 }, (_, index) => `V${index}=x`).join('; ');
    const crowded = await inBypass(`${many}; OUT=/dev/sda; tee "$OUT" < img`);
    expect(crowded.decision, crowded.reason).toBe('ask');
    expect(crowded.reason).toMatch(/more variables, values or links are made than the analysis follows/);
    const words = Array.from({ length: 70 }, (_, index) => `f${index}.txt`).join(' ');
    const looped = await inBypass(`for d in ${words} /dev/sda; do cp img "$d"; done`);
    expect(looped.decision, looped.reason).toBe('ask');
    // within the bounds, a loop over many files stays an ordinary command
    const few = Array.from({ length: 60 }, (_, index) => `f${index}.txt`).join(' ');
    expect((await inDefault(`for d in ${few}; do cp img "$d"; done`)).decision).toBe('allow');
  });

  it('a value doubled past 64 KiB makes the line asked instead of exhausting memory', async () => {
    const seed = `A=${'x'.repeat(8000)}`;
    for (const line of [
      `${seed}; ${Array.from({ length: 20 }, () => 'A+=$A').join('; ')}; tee "$A" < img`,
      `${seed}; ${Array.from({ length: 20 }, () => 'A="$A$A"').join('; ')}; tee "$A" < img`,
    ]) {
      const decision = await inBypass(line);
      expect(decision.decision, decision.reason).toBe('ask');
      expect(decision.reason).toMatch(/more variables, values or links are made than the analysis follows/);
    }
  });

  it('dd into a target from the environment is asked', async () => {
    const decision = await inBypass('dd of="$OUT" < img');
    expect(decision.decision, decision.reason).toBe('ask');
  });

  it('through the gate, a possible device target without an approval channel is APPROVAL_REQUIRED', async () => {
    await expectGateRefuses(policy, 'OUT=/dev/sda; [ -e x ] && OUT=o.img; tee "$OUT" < i', 'vars', MAYBE);
  });
});

describe('device targets relative to a directory changed earlier in the line', () => {
  const DISK =
    /^disk-destruction: writes to the block device \/dev\/(sda|nvme0n1|mapper\/root|disk\/by-id\/ata-X)/;
  it.each<Case>([
    ['cd /dev && tee sda < x', 'deny', DISK],
    ['cd /dev; dd if=x of=sda', 'deny', /^disk-destruction: /],
    ['cd /dev; dd of=sda < x', 'deny', DISK],
    ['pushd /dev && cp x nvme0n1', 'deny', DISK],
    ['cd /dev/mapper && echo x > root', 'deny', DISK],
    ['cd / && tee dev/sda < x', 'deny', DISK],
    ['cd /dev/disk/by-id; cp img ata-X', 'deny', DISK],
    ['cd /tmp; cd /dev; tee sda < x', 'deny', DISK],
    ['cd /; cd dev; tee ./sda < x', 'deny', DISK],
    ['cd /dev/shm/.. && tee sda < x', 'deny', DISK],
    ['D=/dev; cd "$D" && tee sda < x', 'deny', DISK],
    ['cd -P -- /dev && tee sda < x', 'deny', DISK],
    ['builtin cd /dev && tee sda < x', 'deny', DISK],
    ['cd /dev && sudo tee sda < x', 'deny', DISK],
    ["sh -c 'cd /dev && tee sda' < x", 'deny', DISK],
    ["cd /dev && sh -c 'tee sda' < x", 'deny', DISK],
    ['cd /tmp; cd /dev; cd -; cd -; tee sda < x', 'deny', DISK],
    ['cd /dev/$SUB && tee sda < x', 'ask', /named at run time/],
    ['if [ -d /dev ]; then cd /dev; fi; tee sda < x', 'ask', /may write to the block device/],
    ['cd ../../../../../../dev && tee sda < x', 'ask', /may write to the block device \/dev\/sda/],
    ['tee ../../../../../../../dev/sda < x', 'ask', /may write to the block device \/dev\/sda/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it('CDPATH set in the line is searched by a relative cd (beside the asked CDPATH itself)', async () => {
    const parser = await loadShellParser();
    for (const line of [
      'CDPATH=/; cd dev && tee sda < x',
      'export CDPATH=/tmp:/dev; cd mapper; tee root < x',
    ]) {
      const reasons = analyzeCommandLine(parser, line).findings.map((finding) => finding.reason);
      expect(reasons).toContainEqual(
        expect.stringMatching(/^may write to the block device \/dev\/(sda|mapper\/root)/),
      );
      expect(reasons).toContainEqual(expect.stringMatching(/setting CDPATH changes what later commands run/));
    }
  });

  it('a directory deeper than PATH_MAX or a pushd stack deeper than 64 makes the line asked', async () => {
    const OVERFLOW = /more variables, values or links are made than the analysis follows/;
    const deep = await inBypass(`${'cd a; '.repeat(2100)}tee sda < x`);
    expect(deep.decision, deep.reason).toBe('ask');
    expect(deep.reason).toMatch(OVERFLOW);
    const stacked = await inBypass(`${'pushd a; '.repeat(70)}tee sda < x`);
    expect(stacked.decision, stacked.reason).toBe('ask');
    expect(stacked.reason).toMatch(OVERFLOW);
    expect((await inDefault(`${'cd a; '.repeat(50)}tee sda < x`)).decision).toBe('allow');
  });

  it.each([
    'cd /dev && ls -l sda',
    'cd /dev && cat sda > /dev/null',
    '(cd /dev && ls); tee sda.log < x',
    'cd /dev | tee sda < x',
    'cd /tmp && tee sda < x',
    'cd /dev && cd /tmp && tee sda < x',
    'pushd /dev && popd && tee sda < x',
    'cd /dev; cd -; tee sda < x',
    'cd src && tee sda < x',
  ])('%j stays allowed', allowedInDefault);

  it.each([
    ['cd /etc && echo x > passwd', 'ask'],
    ['cd .. && echo x > notes.txt', 'ask'],
    ['cd "$HOME" && echo x > notes.txt', 'ask'],
    ['cd src && echo x > notes.txt', 'allow'],
    ['cd src; cd ..; echo x > notes.txt', 'allow'],
    ['(cd /etc); echo x > notes.txt', 'allow'],
    ['ln -s /etc e; echo x > e/passwd', 'ask'],
    ['ln -s /etc e && cd e && echo x > passwd', 'ask'],
    ['ln -s notes.txt n.txt; echo x > n.txt', 'allow'],
  ])(
    'in accept-edits mode, %j writes where the directory change or link puts it: %s',
    async (command, expected) => {
      const decision = await policy.check(call(bash, { command }, { mode: 'accept-edits', id: 'cd-edits' }));
      expect(decision.decision, decision.reason).toBe(expected);
    },
  );
});

describe('device targets reached through links and device nodes made earlier in the line', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/(sda|nvme0n1|block\/8:0)/;
  it.each<Case>([
    ['ln -s /dev/sda out.img; tee out.img < x', 'deny', DISK],
    ['ln -sf /dev/nvme0n1 disk && cp img disk', 'deny', DISK],
    ['ln -s /dev devices && tee devices/sda < x', 'deny', DISK],
    ['ln -s /dev/sda; tee sda < x', 'deny', DISK],
    ['mkdir l && ln -s /dev/sda l/x && echo x > l/x', 'deny', DISK],
    ['ln -s -t links /dev/sda && tee links/sda < x', 'deny', DISK],
    ['ln --symbolic --target-directory=links /dev/sda; tee links/sda < x', 'deny', DISK],
    ['ln /dev/sda disk; tee disk < x', 'deny', DISK],
    ['cd /tmp && ln -s /dev/sda x; cd /tmp; tee x < y', 'deny', DISK],
    ['ln -s /dev/sda /tmp/x; cd /tmp && tee x < y', 'deny', DISK],
    ['(ln -s /dev/sda x); tee x < y', 'deny', DISK],
    ['cd /dev && ln sda /tmp/disk; cd /tmp; tee disk < x', 'deny', DISK],
    ['ln -s /dev d; cd d && tee sda < x', 'deny', DISK],
    ['mknod disk b 8 0 && tee disk < x', 'deny', DISK],
    ['mknod -m 600 m c 1 1; cp x m', 'deny', /^system-control: writes to \/dev\/mem/],
    ['ln -s ../../../../../dev/sda x; tee x < y', 'ask', /may write to the block device \/dev\/sda/],
    ['ln -s /dev/$DISK x; tee x < y', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it('more links than are followed make the line asked', async () => {
    const many = Array.from({ length: 70 }, (_, index) => `ln -s f${index} l${index}`).join('; ');
    const decision = await inBypass(`${many}; ln -s /dev/sda x; tee x < y`);
    expect(decision.decision, decision.reason).toBe('ask');
    expect(decision.reason).toMatch(/more variables, values or links are made than the analysis follows/);
  });

  it.each([
    'ln -s /dev/sda sda.link; ls -l sda.link',
    'ln -s notes.txt link.txt; tee link.txt < x',
    'ln -s /dev/sda x; tee y < z',
    'mknod pipe p; tee pipe < x',
    'mknod tty0 c 4 0; ls tty0',
    'tee x < y; ln -s /dev/sda x',
  ])('%j stays allowed', allowedInDefault);
});

describe('directories and variables a function changes, once it is called', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    ['f(){ cd /dev; }; f; tee sda < x', 'deny', DISK],
    ['f(){ OUT=/dev/sda; }; f && tee "$OUT" < x', 'deny', DISK],
    ['setup(){ export T=/dev/sda; }; setup; cp x "$T"', 'deny', DISK],
    ['function go { pushd /dev; }; go; tee sda < x', 'deny', DISK],
    ['f(){ g(){ cd /dev; }; }; f; g; tee sda < x', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'f(){ cd /dev; }; tee sda < x',
    'f(){ local OUT=/dev/sda; ls "$OUT"; }; f; tee "$OUT" < x',
    'f(){ declare OUT=/dev/sda; ls "$OUT"; }; f; tee "$OUT" < x',
    'f(){ cd /dev; }; (f); tee sda < x',
    'f(){ cd /dev; ls; }; f | cat; tee sda < x',
  ])('%j stays allowed', allowedInDefault);

  it('in accept-edits mode, a write after calling a function that leaves the workspace is asked', async () => {
    const decision = await policy.check(
      call(bash, { command: 'f(){ cd /etc; }; f; echo x > a.txt' }, { mode: 'accept-edits', id: 'fn-edits' }),
    );
    expect(decision.decision, decision.reason).toBe('ask');
  });
});

describe('what a function called with arguments sets', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // The body walked again with the call's arguments leaves its changes (its `local` names and the
  // caller's positional parameters aside), as a call without arguments does.
  it.each<Case>([
    ['f(){ OUT=$1; }; f /dev/sda; tee "$OUT" < img', 'deny', DISK],
    ['f(){ cd "$1"; }; f /dev; tee sda < img', 'deny', DISK],
    ['f(){ A=("$@"); }; f x /dev/sda; tee "${A[1]}" < img', 'deny', DISK],
    ['set -- /dev/sda; f(){ OUT=$1; }; f x; tee "$1" < img', 'deny', DISK],
    ['f(){ declare -gn G=$1; }; f OUT; OUT=/dev/sda; tee "$G" < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => calls.expectVerdict(entry));

  it.each([
    'f(){ local OUT=$1; }; OUT=out.img; f /dev/sda; tee "$OUT" < img',
    'f(){ OUT=$1; }; f out.img; tee "$OUT" < img',
    'set -- out.img; f(){ OUT=$1; }; f /dev/sda; tee "$1" < img',
  ])('%j runs in bypass mode', calls.runsInBypass);
});

describe('positional parameters, function arguments and command names set in the line', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  it.each<Case>([
    ['set -- /dev/sda; tee "$1" < img', 'deny', DISK],
    ['set -e -- x.img /dev/sda; tee "$@" < img', 'deny', DISK],
    ['set -- x.img /dev/sda; shift; tee "$1" < img', 'deny', DISK],
    ['f(){ tee "$@"; }; f /dev/sda < img', 'deny', DISK],
    ['f(){ dd of="$1"; }; f /dev/sda < img', 'deny', DISK],
    ['function f { cp img "${2}"; }; f x /dev/sda', 'deny', DISK],
    ['f(){ g "$@"; }; g(){ tee "$1"; }; f /dev/sda < img', 'deny', DISK],
    ['f(){ "$@"; }; f rm -rf /', 'deny', RM],
    ['X=rm; $X -rf /', 'deny', RM],
    ['T=tee; $T /dev/sda < img', 'deny', DISK],
    ['$(echo rm) -rf /', 'deny', RM],
    [`f(){ tee "$1"; }; ${'f a.img; '.repeat(17)}true`, 'ask', /called with arguments more than 16 times/],
    ['f(){ "$@"; }; f ls', 'ask', /command name is computed at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'f(){ tee "$1"; }; f out.img < img',
    'set -- /dev/sda; shift; tee "$1" < img',
    'set -e; tee "$1" < img',
    'f(){ cp "$1" backup.img; }; f /dev/sda',
    'f(){ local a=1; }; f /dev/sda; tee out.img < img',
  ])('%j runs in bypass mode (no deny rule, nothing unknown)', runsInBypass);
});

describe('the positional parameters of sh -c', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  // `sh -c SCRIPT NAME ARG...`: the script's `$1`, `"$@"` are the words after its name.
  it.each<Case>([
    ['sh -c \'tee "$1"\' _ /dev/sda < img', 'deny', DISK],
    ['OUT=/dev/sda; sh -c \'tee $1\' _ "$OUT" < img', 'deny', DISK],
    ['bash -c \'tee "$@"\' sh x /dev/sda < img', 'deny', DISK],
    ['bash -c \'tee "$0"\' /dev/sda < img', 'deny', DISK],
  ])('%j is %s', async (...entry) => calls.expectVerdict(entry));

  it.each([
    'sh -c \'tee "$1"\' _ out.img < img',
    'set -- /dev/sda; bash -c \'tee "$1"\' < img',
    'bash -c \'tee "$0"\' out.img < img',
  ])('%j runs in bypass mode', calls.runsInBypass);
});
