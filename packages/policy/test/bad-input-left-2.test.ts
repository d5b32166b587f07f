// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine, loadShellParser } from '../src/index.js';
import { bash, call, expectGateRefuses, shellPolicy } from './helpers.js';

/**
 * Gaps a second sweep noticed and left: kernel memory written like a disk, and rsync writing
 * into devices. Each line is judged in bypass mode under generous allow rules, where anything
 * that is neither denied nor asked runs; the near misses must stay allowed in the default mode.
 */
const ALLOW = [
  'echo *',
  'cat *',
  'tee *',
  'cp *',
  'dd *',
  'sponge *',
  'rsync *',
  'sudo tee *',
  'sudo rsync *',
  'true',
  'cd *',
  'pushd *',
  'popd',
  'export *',
  'declare *',
  'ls *',
  'env *',
  'sudo *',
  'sh *',
  'bash *',
  'ln *',
  'mknod *',
  'mkdir *',
  'find *',
  'xargs *',
  'curl *',
  'wget *',
  'tar *',
  'ssh *',
  'printf *',
  'read *',
  'f',
  'g',
  'go',
  'setup',
];

type Expected = 'deny' | 'ask';
type Case = readonly [string, Expected, RegExp];

const { policy, inBypass, inDefault } = shellPolicy(ALLOW, 'left-2');

async function expectVerdict([command, expected, reason]: Case): Promise<void> {
  const decision = await inBypass(command);
  expect(decision.decision, decision.reason).toBe(expected);
  expect(decision.reason).toMatch(reason);
}

const allowedInDefault = async (command: string): Promise<void> => {
  const decision = await inDefault(command);
  expect(decision.decision, decision.reason).toBe('allow');
};

describe('kernel memory and I/O ports written as files', () => {
  const MEMORY = /^system-control: writes to \/dev\/(mem|kmem|port)/;
  it.each<Case>([
    ['echo x > /dev/mem', 'deny', MEMORY],
    ['printf x >> /dev/kmem', 'deny', MEMORY],
    ['echo x > /dev/port', 'deny', MEMORY],
    ['cat blob | tee /dev/mem', 'deny', MEMORY],
    ['cat blob | sudo tee //dev/./kmem', 'deny', MEMORY],
    ['cp blob /dev/mem', 'deny', MEMORY],
    ['dd of=/dev/mem bs=1 seek=4096 < blob', 'deny', MEMORY],
    ['sponge /dev/port < blob', 'deny', MEMORY],
    ['echo x 1<>/dev/mem', 'deny', MEMORY],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'cat /dev/mem > /dev/null',
    'cp /dev/mem memory.img',
    'echo x | tee memory.txt',
    'echo x | tee /dev/stdout',
    'echo x > /dev/stderr',
    'echo x > /dev/null',
    'cat /dev/port | tee ports.txt',
  ])('%j stays allowed', allowedInDefault);

  it.each(['echo x > /dev/tty', 'echo x > memory.txt', 'echo x > /dev/shm/scratch'])(
    '%j is a plain file write (runs in bypass mode)',
    async (command) => {
      const decision = await inBypass(command);
      expect(decision.decision, decision.reason).toBe('allow');
    },
  );
});

describe('rsync writing into devices', () => {
  const DISK = /^disk-destruction: /;
  it.each<Case>([
    ['rsync --write-devices disk.img /dev/sda', 'deny', /writes to the block device \/dev\/sda/],
    ['sudo rsync --inplace --write-devices disk.img /dev/nvme0n1', 'deny', DISK],
    ['rsync --copy-devices --write-devices /dev/sda /dev/sdb', 'deny', /block device \/dev\/sdb/],
    ['rsync -a --write-devices disk.img root@host:/dev/sda', 'deny', DISK],
    ['rsync disk.img /dev/sda --write-devices', 'deny', DISK],
    ['rsync -a --write-devices images/ /dev/', 'deny', /device files under \/dev/],
    ['rsync -a --write-devices backup/ /', 'deny', /device files under \//],
    ['rsync --write-devices blob /dev/mem', 'deny', /^system-control: writes to \/dev\/mem/],
    [
      'rsync --write-devices disk.img "$TARGET"',
      'ask',
      /rsync --write-devices into a destination named at run time/,
    ],
    ['rsync --write-devices disk.img /dev/$DISK', 'ask', /named at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'rsync --copy-devices /dev/sda backup/sda.img',
    'rsync -a --copy-devices /dev/nvme0n1 host:backups/',
    'rsync --write-devices disk.img backup/disk.img',
    'rsync -a src/ dest/',
    'rsync -a "$SRC" dest/',
  ])('%j stays allowed', allowedInDefault);
});

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

  it('dd into a target from the environment is asked, as before', async () => {
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

describe('more hostile inputs next to them', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  it.each<Case>([
    // wrappers that change the directory or the environment of the command they run
    ['env -C /dev tee sda < x', 'deny', DISK],
    ['env --chdir=/dev tee sda < x', 'deny', DISK],
    ['env --chdir /dev cp x sda', 'deny', DISK],
    ['sudo -D /dev tee sda < x', 'deny', DISK],
    ['sudo --chdir=/dev cp x sda', 'deny', DISK],
    ['env OUT=/dev/sda sh -c \'tee "$OUT"\' < x', 'deny', DISK],
    ['env -u X OUT=/dev/sda sh -c \'cp x "$OUT"\'', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each<Case>([
    // more raw storage: flash, compressed RAM, floppies, tapes, SCSI generic, UBI, caches
    ['echo x > /dev/mtd0', 'deny', /^disk-destruction: writes to the block device \/dev\/mtd0/],
    ['cp firmware.bin /dev/mtdblock0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/zram0', 'deny', /^disk-destruction: /],
    ['tee /dev/fd0 < floppy.img', 'deny', /^disk-destruction: /],
    ['tee /dev/sg0 < x', 'deny', /^disk-destruction: /],
    ['tee /dev/nst0 < backup.tar', 'deny', /^disk-destruction: /],
    ['echo x > /dev/st0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/ubi0_0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/bcache0', 'deny', /^disk-destruction: /],
    ['echo x > /dev/drbd1', 'deny', /^disk-destruction: /],
    ['echo x > /dev/ram0', 'deny', /^disk-destruction: /],
    // the hardware watchdog reboots a machine nobody feeds; MSRs and NVRAM change the hardware
    ['echo x > /dev/watchdog', 'deny', /^system-control: writes to \/dev\/watchdog/],
    ['echo x > /dev/watchdog1', 'deny', /^system-control: /],
    ['cp regs.bin /dev/cpu/0/msr', 'deny', /^system-control: writes to \/dev\/cpu\/0\/msr/],
    ['cat cmos.bin > /dev/nvram', 'deny', /^system-control: /],
    // a default value is used when the variable is empty or unset
    ['tee "${OUT:-/dev/sda}" < x', 'ask', /may write to the block device \/dev\/sda/],
    ['echo x > "${OUT:=/dev/sda}"', 'ask', /may write to the block device \/dev\/sda/],
    ['cp x ${OUT-"/dev/$DISK"}', 'ask', /named at run time/],
    ['OUT=/dev/sdb; tee "${OUT:-/dev/sda}" < x', 'deny', /^disk-destruction: writes to the block device/],
    // sysfs files that stop the machine or pull a disk out from under it
    ['echo mem > /sys/power/state', 'deny', /^system-control: writes to \/sys\/power\/state/],
    ['echo 1 > /sys/block/sda/device/delete', 'deny', /^system-control: .*removes the device/],
    [
      'cd /sys/bus/pci/devices/0000:00:1f.2 && echo 1 > remove',
      'deny',
      /^system-control: .*removes the device/,
    ],
    ['echo 1 | sudo tee /sys/class/scsi_device/0:0:0:0/device/delete', 'deny', /^system-control: /],
    ['echo 1 > /sys/block/$DISK/device/delete', 'ask', /named at run time/],
    // a logical volume is named /dev/VG/LV, with any volume group name
    ['echo x > /dev/ubuntu-vg/root', 'ask', /may be a logical volume/],
    ['cd /dev/vg0 && tee home < x', 'ask', /may be a logical volume/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'env -C /tmp tee sda < x',
    'env -C /dev ls -l sda',
    'sudo -D /dev ls sda',
    'env -C /dev true; tee sda < x',
    'env OUT=/dev/sda true; tee "$OUT" < x',
    'env OUT=/dev/sda tee "$OUT" < x',
    'tee "${OUT:-out.img}" < x',
    'cp x "${DEST:-backup}/"',
  ])('%j stays allowed', allowedInDefault);

  it.each([
    'echo x > /dev/shm/scratch',
    'echo x > /dev/pts/0',
    'echo x > /dev/fd/1',
    'echo x > /dev/stdout',
    'echo x > /dev/zero',
    'echo x > /dev/urandom',
    'echo x > /dev/tty',
    'echo x > /dev/stdin',
    'echo x > /dev/fdisk.txt',
    'echo x > /dev/status.log',
    'cat /dev/watchdog0 > /dev/null',
    'cat /sys/power/state > /dev/null',
    'echo x > remove',
    'echo 1 > /sys/class/leds/input0::capslock/brightness',
  ])('%j is not a device write (runs in bypass mode)', async (command) => {
    const decision = await inBypass(command);
    expect(decision.decision, decision.reason).toBe('allow');
  });
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

describe('device targets named by find and xargs at run time', () => {
  const RUN_TIME = /device or kernel file named at run time/;
  it.each<Case>([
    ['find /dev -name sda -exec tee {} \\; < x', 'ask', RUN_TIME],
    ["find /dev/disk -type l -exec cp img '{}' ';'", 'ask', RUN_TIME],
    ['find / -name sda -exec tee {} +', 'ask', RUN_TIME],
    ['cd /dev && find . -name sda -exec cp img {} \\;', 'ask', RUN_TIME],
    ['find /dev -name sda -execdir tee {} \\; < x', 'ask', RUN_TIME],
    ['find /dev -name sda -exec dd of={} \\; < x', 'ask', /./],
    ['ls | xargs -I{} tee /dev/{} < x', 'ask', RUN_TIME],
    ['ls | xargs -I DISK cp img /dev/DISK', 'ask', RUN_TIME],
    ['ls | xargs --replace=@ tee /dev/@', 'ask', RUN_TIME],
    ['ls | xargs -i tee /dev/{}', 'ask', RUN_TIME],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'find . -name "*.txt" -exec cp {} backup/ \\;',
    'find src -name "*.log" -exec tee -a {} \\; < x',
    'find /dev -name sda -exec ls -l {} \\;',
    'ls | xargs -I{} cp {} backup/',
    'ls | xargs -I{} tee notes/{} < x',
    'ls | xargs cp -t backup',
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
  ])('%j stays allowed', async (command) => {
    const decision = await policy.check(call(bash, { command }, { id: 'functions-default' }));
    expect(decision.decision, decision.reason).toBe('allow');
  });

  it('in accept-edits mode, a write after calling a function that leaves the workspace is asked', async () => {
    const decision = await policy.check(
      call(bash, { command: 'f(){ cd /etc; }; f; echo x > a.txt' }, { mode: 'accept-edits', id: 'fn-edits' }),
    );
    expect(decision.decision, decision.reason).toBe('ask');
  });
});

describe('device writes run on another machine by ssh', () => {
  it.each<Case>([
    [
      "cat disk.img | ssh host 'dd of=/dev/sda'",
      'deny',
      /^disk-destruction: writes to the block device \/dev\/sda/,
    ],
    ['cat disk.img | ssh -p 2222 -i key root@host tee /dev/sda', 'deny', /^disk-destruction: /],
    ["ssh -o BatchMode=yes host 'cd /dev && cat > sda' < disk.img", 'deny', /^disk-destruction: /],
    ["ssh host -- 'echo b > /proc/sysrq-trigger'", 'deny', /^system-control: /],
    ["ssh host 'rm -rf /'", 'deny', /^destructive-file-operation: /],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'ssh host uptime',
    "ssh -p 2222 host 'cd /srv && git pull'",
    'ssh host',
    'ssh -N -L 8080:localhost:80 host',
    "ssh host 'ls -l /dev/sda'",
    'ssh -s host sftp',
  ])('%j stays allowed: allow rules still match ssh itself', allowedInDefault);
});
