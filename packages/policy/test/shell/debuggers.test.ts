import { describe, it } from 'vitest';
import { type Case, expectGateRefuses, writerPolicy, WIDE_WRITERS } from '../helpers.js';

/**
 * Debuggers run the commands they are given and attach to running processes: such lines are
 * asked, and a shell command inside a debugger command is parsed, so a deny rule still denies.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const writers = writerPolicy('debuggers');
const wide = writerPolicy('debuggers-wide', WIDE_WRITERS);

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
  ])('%j is %s', async (...entry) => writers.expectVerdict(entry));

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
  ])('%j stays allowed', writers.allowedInDefault);

  it('through the gate, gdb -ex without an approval channel is APPROVAL_REQUIRED and never runs', async () => {
    await expectGateRefuses(
      writers.policy,
      'gdb -batch -ex \'call system("id")\' -p 1',
      'gdb',
      /gdb runs commands/,
    );
  });
});

describe('debugger pipes, standard input and other debugger names', () => {
  it.each<Case>([
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
  ])('%j is %s', async (...entry) => wide.expectVerdict(entry));

  it.each(['gdb -batch ./app < /dev/null', 'gdbserver --version', 'cgdb ./app'])(
    '%j stays allowed',
    wide.allowedInDefault,
  );
});
