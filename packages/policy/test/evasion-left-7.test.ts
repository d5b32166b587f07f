import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy } from './device-write-cases.js';

/**
 * What a seventh sweep, as a hostile user of the default rules, found open. Judged in bypass mode
 * under generous allow rules, where anything neither denied nor asked runs; each verdict was
 * checked against what bash 5.2 does with the line; near misses stay as they were.
 */
const { expectVerdict, askedInBypass } = deviceWritePolicy('left-7-sweep', ['sort *', 'rm *']);
const DISK = /^disk-destruction: (writes to the block device \/dev\/sda|dd)/;
const RM = /^destructive-file-operation: rm with recursive and force flags/;

describe('heredoc bodies passed on by cat to a shell', () => {
  // `cat <<EOF | sh`: cat prints the static body, which the shell runs (parsed as `echo ... | sh` is).
  it.each<Case>([
    ['cat <<EOF | sh\nrm -rf /\nEOF', 'deny', RM],
    ['cat <<EOF | cat | bash\nrm -rf /\nEOF', 'deny', RM],
    ["cat <<'EOF' | bash\ndd if=img of=/dev/sda\nEOF", 'deny', DISK],
    ['cat <<< "rm -rf /" | cat - | sh', 'deny', RM],
  ])('%j is %s', async (...entry) => expectVerdict(entry));

  it.each(['cat <<EOF | sh\nls\nEOF', 'cat <<EOF | sh\n$X\nEOF', 'sort <<EOF | sh\nrm -rf /\nEOF'])(
    '%j stays asked',
    askedInBypass,
  );
});
