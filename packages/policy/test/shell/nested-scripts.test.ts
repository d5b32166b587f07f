// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from '../helpers.js';

/**
 * Scripts a command runs from text the line holds: a known text fed to a shell or to `source`, a
 * heredoc passed on by `cat` to a shell, alias bodies, and the command ssh runs on another
 * machine. The line stays asked when the text is produced at run time, but a deny rule inside
 * denies.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const devices = deviceWritePolicy('nested-scripts');
const heredocs = deviceWritePolicy('nested-heredocs', ['sort *', 'rm *']);

describe('scripts with a known text fed to a shell or to source', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sda/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));
});

describe('heredoc bodies passed on by cat to a shell', () => {
  const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
  // `cat <<EOF | sh`: cat prints the static body, which the shell runs (parsed as `echo ... | sh` is).
  it.each<Case>([
    ['cat <<EOF | sh\nrm -rf /\nEOF', 'deny', RM],
    ['cat <<EOF | cat | bash\nrm -rf /\nEOF', 'deny', RM],
    ["cat <<'EOF' | bash\ndd if=img of=/dev/sda\nEOF", 'deny', DISK],
    ['cat <<< "rm -rf /" | cat - | sh', 'deny', RM],
  ])('%j is %s', async (...entry) => heredocs.expectVerdict(entry));

  it.each(['cat <<EOF | sh\nls\nEOF', 'cat <<EOF | sh\n$X\nEOF', 'sort <<EOF | sh\nrm -rf /\nEOF'])(
    '%j stays asked',
    heredocs.askedInBypass,
  );
});

describe('aliases defined in the line', () => {
  const DISK = /^disk-destruction: writes to the block device \/dev\/sd[a-z]/;
  const RM = /^destructive-file-operation: rm with recursive and force flags/;
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each(["alias ll='ls -l'; ll /tmp", "alias x='cp img'; x out.img"])(
    '%j is asked, not denied',
    devices.askedInBypass,
  );
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
  ])('%j is %s', async (...entry) => devices.expectVerdict(entry));

  it.each([
    'ssh host uptime',
    "ssh -p 2222 host 'cd /srv && git pull'",
    'ssh host',
    'ssh -N -L 8080:localhost:80 host',
    "ssh host 'ls -l /dev/sda'",
    'ssh -s host sftp',
  ])('%j stays allowed: allow rules still match ssh itself', devices.allowedInDefault);
});
