// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../src/index.js';
import { type Case, bash, call, expectGateRefuses, shellPolicy } from './helpers.js';

/**
 * Gaps a previous sweep noticed and left: raw block devices written by a command rather than a
 * redirect, the magic SysRq trigger, fork bombs under other names, and debugger script flags.
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; the near misses must stay allowed in the default mode.
 */
const ALLOW = [
  'echo *',
  'cat *',
  'tee *',
  'cp *',
  'dd *',
  'sponge *',
  'curl *',
  'wget *',
  'sort *',
  'sudo tee *',
  'sudo cp *',
  'sysctl *',
  'gdb *',
  'lldb *',
  'ls *',
  'true',
];

const { policy, inBypass, expectVerdict, allowedInDefault } = shellPolicy(ALLOW, 'left');

describe('block devices written by a command, as by a redirect', () => {
  const DISK = /^disk-destruction: writes to the block device/;
  it.each<Case>([
    ['tee /dev/sda', 'deny', DISK],
    ['tee -a /dev/nvme0n1', 'deny', DISK],
    ['echo x | tee out.log /dev/sdb1', 'deny', DISK],
    ['tee --append -- /dev/vda', 'deny', DISK],
    ['cat x | sudo tee /dev/sdb', 'deny', DISK],
    ['cat x | sudo tee /dev/sdb > /dev/null', 'deny', DISK],
    ['cp x /dev/sda', 'deny', DISK],
    ['cp -f disk.img /dev/mmcblk0', 'deny', DISK],
    ['sudo cp disk.img /dev/disk2', 'deny', DISK],
    ['cp disk.img /dev/rdisk2', 'deny', DISK],
    ['cp sda /dev', 'deny', DISK],
    ['cp -t /dev/ sda', 'deny', DISK],
    ['cp --target-directory=/dev sdb', 'deny', DISK],
    ['tee /dev/sd?', 'deny', DISK],
    ['sponge /dev/sda', 'deny', DISK],
    ['curl -sLo /dev/sda https://example.test/image', 'deny', DISK],
    ['curl --output /dev/sda https://example.test/image', 'deny', DISK],
    ['wget -O /dev/sda https://example.test/image', 'deny', DISK],
    ['wget --output-document=/dev/sda https://example.test/image', 'deny', DISK],
    ['sort -o /dev/sda list.txt', 'deny', DISK],
    ['dd of=/dev/vda', 'deny', DISK],
    ['dd bs=4M of=/dev/sda status=progress', 'deny', DISK],
    ['cat image | dd of=/dev/nvme0n1p1', 'deny', DISK],
    // other spellings of the same device path, for commands and redirects alike
    ['tee //dev/sda', 'deny', DISK],
    ['tee /dev/./sda', 'deny', DISK],
    ['cp x /dev/../dev/sda', 'deny', DISK],
    ['echo x > //dev/sda', 'deny', DISK],
    ['echo x > /dev/./nvme0n1', 'deny', DISK],
    ['echo x > /dev/dm-0', 'deny', DISK],
    ['echo x > /dev/block/8:0', 'deny', DISK],
    // a device named at run time
    ['tee /dev/$DISK', 'ask', /device or kernel file named at run time/],
    ['cp x "/dev/${DISK}"', 'ask', /device or kernel file named at run time/],
    ['echo x > /dev/$DISK', 'ask', /device or kernel file named at run time/],
    // brace expansion gives the device itself (test/evasion-left-4.test.ts)
    ['tee {/dev/sda,notes.txt}', 'deny', DISK],
    ['cp x {,/dev/sda}', 'deny', DISK],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'tee out.txt',
    'echo hi | tee -a notes.txt',
    'echo hi | tee /dev/null',
    'echo hi | tee /dev/stderr',
    'cp /dev/sda backup.img',
    'cp notes.txt devices.txt',
    'cp -t backup /dev/sda',
    'cp -S .orig notes.txt /tmp/notes.txt',
    'cat /dev/sda > /dev/null',
    'curl -o page.html https://example.test/',
    'sort -o sorted.txt list.txt',
    'ls /dev/sda',
    'echo /dev/sda',
  ])('%j stays allowed', allowedInDefault);
});

describe('the magic SysRq trigger', () => {
  const TRIGGER = /^system-control: writes to \/proc\/sysrq-trigger/;
  const ENABLE = /magic SysRq key/;
  it.each<Case>([
    ['echo b > /proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo o >/proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo c | tee /proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo c | sudo tee /proc/sysrq-trigger', 'deny', TRIGGER],
    ["sudo sh -c 'echo b > /proc/sysrq-trigger'", 'deny', TRIGGER],
    ['printf b | dd of=/proc/sysrq-trigger', 'deny', TRIGGER],
    ['echo b > /proc//sysrq-trigger', 'deny', TRIGGER],
    ['echo b > /proc/self/../sysrq-trigger', 'deny', TRIGGER],
    ['echo b >> /proc/sysrq-trigger', 'deny', TRIGGER],
    ['sysctl kernel.sysrq=1', 'ask', ENABLE],
    ['sysctl -w kernel.sysrq=1', 'ask', ENABLE],
    ['sysctl -w kernel/sysrq=176', 'ask', ENABLE],
    ['sudo sysctl --write kernel.sysrq=1', 'ask', ENABLE],
    ["sysctl -w 'kernel.sysrq = 1'", 'ask', ENABLE],
    ['echo 1 > /proc/sys/kernel/sysrq', 'ask', ENABLE],
    ['echo 1 | tee /proc/sys/kernel/sysrq', 'ask', ENABLE],
    ['echo b > /proc/$TARGET', 'ask', /kernel file named at run time/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it('a redirect of the same text into a file of the workspace runs in accept-edits mode', async () => {
    const decision = await policy.check(
      call(bash, { command: 'echo b > notes.txt' }, { mode: 'accept-edits' }),
    );
    expect(decision.decision, decision.reason).toBe('allow');
  });

  it.each([
    'echo b | tee notes.txt',
    'echo b | tee sysrq-trigger.txt',
    'cat /proc/sysrq-trigger',
    'cat /proc/sys/kernel/sysrq',
    'sysctl kernel.sysrq',
    'sysctl -n kernel.sysrq',
    'sysctl -a',
  ])('%j stays allowed', allowedInDefault);
});

describe('fork bombs under other names', () => {
  const BOMB = /^fork-bomb: /;
  it.each<Case>([
    ['a(){ b|b& }; b(){ a|a& }; a', 'deny', BOMB],
    ['a(){ b & }; b(){ c & }; c(){ a|a & }; a', 'deny', BOMB],
    ['function a { b|b& }; function b { a|a& }; a', 'deny', BOMB],
    ['a(){ b(){ a|a& }; b; }; a', 'deny', BOMB],
    ['a(){ eval "b|b&"; }; b(){ a|a& }; a', 'deny', BOMB],
    ['a(){ $(b) & }; b(){ a|a& }; a', 'deny', BOMB],
    ['bomb(){ bomb|bomb& }; bomb', 'deny', BOMB],
    ['.(){ .|.& };.', 'deny', BOMB],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it('names the functions that call each other', async () => {
    const decision = await inBypass('ping(){ pong|pong& }; pong(){ ping|ping& }; ping');
    expect(decision.reason).toMatch(/ping -> pong -> ping|pong -> ping -> pong/);
  });

  it('a call graph of many functions is judged in time, and a cycle at its end is found', async () => {
    const chain = Array.from({ length: 2000 }, (_, index) => `f${index}(){ f${index + 1}; }`).join('; ');
    expect((await inBypass(`${chain}; f2000(){ true; }; f0`)).decision).toBe('allow');
    const cycle = await inBypass(`${chain}; f2000(){ f0 & }; f0`);
    expect(cycle.decision).toBe('deny');
    expect(cycle.reason).toMatch(/^fork-bomb: /);
  }, 60_000);

  it.each([
    'a(){ echo a; }; b(){ a; a; }; b',
    'ls(){ command ls -F "$@"; }; ls',
    'cd(){ builtin cd "$@" && ls; }; cd src',
  ])('%j stays allowed', async (command) => {
    const strict = createPolicy({ commands: { allow: ['echo *', 'ls *', 'cd *', 'a', 'b', 'true'] } });
    const decision = await strict.check(call(bash, { command }, { mode: 'bypass' }));
    expect(decision.decision, decision.reason).toBe('allow');
  });
});

describe('debugger script and attach flags', () => {
  const RUNS = /gdb runs commands|lldb runs commands/;
  const ATTACH = /attaches to a running process/;
  it.each<Case>([
    ["gdb -ex 'shell rm -rf /'", 'deny', /^destructive-file-operation/],
    ["gdb -batch -ex '!rm -rf /' ./app", 'deny', /^destructive-file-operation/],
    ["gdb --batch --eval-command='shell reboot'", 'deny', /^system-control/],
    ["lldb -o 'platform shell rm -rf /'", 'deny', /^destructive-file-operation/],
    ["lldb --one-line 'shell rm -rf /' ./app", 'deny', /^destructive-file-operation/],
    ["lldb -o 'platform shell -t 5 -- rm -rf /'", 'deny', /^destructive-file-operation/],
    ["gdb -ex 'she rm -rf /'", 'deny', /^destructive-file-operation/],
    ["gdb-multiarch -ex 'shell rm -rf /'", 'deny', /^destructive-file-operation/],
    ['gdb -p1234', 'ask', ATTACH],
    ['gdb -c 1234 ./app', 'ask', ATTACH],
    ['lldb-18 -p 1234', 'ask', ATTACH],
    ['gdb -ex \'call system("id")\' -p 1', 'ask', RUNS],
    ["gdb --batch -ex 'python import os' ./app", 'ask', RUNS],
    ['gdb -iex "set auto-load safe-path /" ./app', 'ask', RUNS],
    ['gdb -eval "run" ./app', 'ask', RUNS],
    ['gdb -x script.gdb ./app', 'ask', RUNS],
    ['gdb --command=script.gdb ./app', 'ask', RUNS],
    ['gdb -ix init.gdb ./app', 'ask', RUNS],
    ['gdb -p 1234', 'ask', ATTACH],
    ['gdb --pid=1234', 'ask', ATTACH],
    ['gdb ./app 1234', 'ask', ATTACH],
    ['sudo gdb -p 1', 'ask', /./],
    ['lldb -o \'expr (int)system("id")\' -p 1', 'ask', RUNS],
    ['lldb -s cmds.lldb ./app', 'ask', RUNS],
    ['lldb --source-before-file cmds.lldb ./app', 'ask', RUNS],
    ['lldb -p 1234', 'ask', ATTACH],
    ['lldb --attach-name sshd', 'ask', ATTACH],
    ['lldb -n sshd -w', 'ask', ATTACH],
    ['gdb $FLAGS ./app', 'ask', /decided at run time/],
    ["gdb $FLAGS -ex 'shell rm -rf /'", 'deny', /^destructive-file-operation/],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each([
    'gdb --version',
    'gdb --help',
    'gdb -q ./app',
    'gdb ./app core',
    'gdb -q -batch -c core ./app',
    'lldb -c core ./app',
    'gdb --args ./app -x -p 1',
    'lldb --version',
    'lldb ./app',
    'lldb -- ./app -o x',
  ])('%j stays allowed', allowedInDefault);

  it('through the gate, gdb -ex without an approval channel is APPROVAL_REQUIRED and never runs', async () => {
    await expectGateRefuses(policy, 'gdb -batch -ex \'call system("id")\' -p 1', 'gdb', /gdb runs commands/);
  });
});

describe('more hostile inputs next to them', () => {
  const strict = createPolicy({
    commands: {
      allow: [
        ...ALLOW,
        'valgrind *',
        'catchsegv *',
        'blkdiscard *',
        'tar *',
        'install *',
        'xxd *',
        'toybox *',
        'rust-gdb *',
        'rust-lldb *',
        'cgdb *',
        'gdbserver *',
      ],
    },
  });
  const decide = (command: string, mode: 'bypass' | 'default' = 'bypass') =>
    strict.check(call(bash, { command }, { mode, id: `more-${mode}` }));

  it.each<Case>([
    // `<>` opens for reading and writing; the grammar does not know it and leaves an error node
    ['echo b 1<>/proc/sysrq-trigger', 'deny', /^system-control/],
    // read by the grammar as `<` then `>/dev/sda`: it opens the device for writing all the same
    ['echo b <>/dev/sda', 'deny', /^disk-destruction/],
    ['echo b 1<>notes.txt', 'ask', /does not parse/],
    // more programs that write the file they are given
    ['install -m 644 disk.img /dev/sda', 'deny', /^disk-destruction/],
    ['xxd -r dump.hex /dev/sda', 'deny', /^disk-destruction/],
    ['tar -cf /dev/sda .', 'deny', /^disk-destruction/],
    ['tar --create --file=/dev/sda .', 'deny', /^disk-destruction/],
    ['tar cf /dev/nvme0n1 .', 'deny', /^disk-destruction/],
    ['blkdiscard /dev/sda', 'deny', /^disk-destruction/],
    // programs that run the command they are given, as strace and ltrace do
    ['valgrind rm -rf /', 'deny', /^destructive-file-operation/],
    ['valgrind --tool=memcheck --leak-check=full rm -rf /', 'deny', /^destructive-file-operation/],
    ['catchsegv rm -rf /', 'deny', /^destructive-file-operation/],
    // gdb's pipe command runs its last part in a shell
    ["gdb -ex 'pipe bt | rm -rf /'", 'deny', /^destructive-file-operation/],
    ["gdb -ex '| bt | rm -rf /'", 'deny', /^destructive-file-operation/],
    ["gdb -ex 'pipe -d XX bt XX rm -rf /'", 'deny', /^destructive-file-operation/],
    // a debugger reads the commands it runs from its standard input when that is not a terminal
    ["echo 'shell rm -rf /' | gdb -batch", 'ask', /reads commands from its standard input/],
    ['gdb -q ./app <<< \'call system("id")\'', 'ask', /reads commands from its standard input/],
    ['gdb ./app < cmds.gdb', 'ask', /reads commands from its standard input/],
    ['lldb ./app < cmds.lldb', 'ask', /reads commands from its standard input/],
    // gdb and lldb under other names, and gdbserver, which takes commands over the network
    ["rust-gdb -ex 'shell rm -rf /'", 'deny', /^destructive-file-operation/],
    ["rust-lldb -o 'shell rm -rf /'", 'deny', /^destructive-file-operation/],
    ["cgdb -- -ex 'shell rm -rf /'", 'deny', /^destructive-file-operation/],
    ['cgdb -- -x cmds.gdb ./app', 'ask', /gdb runs commands read from the file/],
    ['gdbserver :1234 ./app', 'ask', /whoever reaches its port/],
    ['gdbserver --attach :1234 1', 'ask', /whoever reaches its port/],
    ["lldb -o'expr 1' ./app", 'ask', /lldb runs commands given in -o,/],
    // toybox runs its applets as busybox does
    ['toybox rm -rf /', 'deny', /^destructive-file-operation/],
    ['toybox cp x /dev/sda', 'deny', /^disk-destruction/],
  ])('%j is %s', async (command, expected, reason) => {
    const decision = await decide(command);
    expect(decision.decision, decision.reason).toBe(expected);
    expect(decision.reason).toMatch(reason);
  });

  it.each([
    'tar -xf /dev/sr0',
    'tar -tf backup.tar',
    'tar -cf backup.tar src',
    'xxd /dev/sda',
    'xxd -r dump.hex out.bin',
    'install -m 755 tool.sh bin/tool',
    'valgrind --tool=memcheck ls',
    'gdb -batch ./app < /dev/null',
    'toybox ls',
    'gdbserver --version',
    'cgdb ./app',
  ])('%j stays allowed', async (command) => {
    const decision = await decide(command, 'default');
    expect(decision.decision, decision.reason).toBe('allow');
  });
});
