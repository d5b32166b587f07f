import { normalizePath } from '../paths/paths.js';
import { type ShellWord, staticWord } from '../words/shell-word.js';
import { type WriteVerdict, verdictOf } from './write-verdicts.js';

/** Paths a file-name pattern is tried against: disks, kernel memory, the SysRq trigger. */
const SAMPLES = [
  '/dev/sda',
  '/dev/sdb',
  '/dev/vda',
  '/dev/xvda',
  '/dev/hda',
  '/dev/nvme0n1',
  '/dev/mmcblk0',
  '/dev/md0',
  '/dev/dm-0',
  '/dev/mem',
  '/dev/kmem',
  '/dev/port',
  '/proc/sysrq-trigger',
  '/sys/firmware/efi/efivars/Boot0000-8be4df61-93ca-11d2-aa0d-00e098032b8c',
];

/** Most wildcards of a pattern that is matched against {@link SAMPLES}. */
const MAX_WILDCARDS = 16;

/** Directories where a pattern's files are judged as devices or kernel files. */
const SPECIAL = ['dev', 'proc', 'sys'];

/** A glob as a regular expression over whole paths (`*` and `?` stop at `/`, `[...]` one character). */
export function globPattern(glob: string): RegExp | undefined {
  let source = '';
  for (let at = 0; at < glob.length; at++) {
    const char = glob[at] as string;
    if (char === '\\' && at + 1 < glob.length)
      source += (glob[++at] as string).replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const close = glob.indexOf(']', at + 2);
      if (close < 0) return undefined;
      const inside = glob
        .slice(at + 1, close)
        .replace(/^[!^]/, '^')
        .replace(/\\/g, '\\\\');
      source += `[${inside}]`;
      at = close;
    } else source += char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return undefined;
  }
}

/**
 * How a written word with an unquoted file-name pattern is judged (`tee /dev/*`, `tee
 * /d[e]v/sda`): bash gives every file it matches, so a pattern that matches a disk, kernel memory
 * or the SysRq trigger writes it (denied); one whose first directory may be /dev, /proc or /sys
 * may name such a file (asked). Undefined otherwise, and for a pattern that is not absolute.
 */
export function globVerdict(word: ShellWord): WriteVerdict | undefined {
  if (!word.glob || word.dynamic) return undefined;
  const path = normalizePath(word.text);
  if (!path.startsWith('/')) return undefined;
  // Each wildcard multiplies the ways a regular expression may try: past a few the pattern is
  // asked rather than matched (a bound on the work).
  let wildcards = 0;
  for (const char of path) if (char === '*' || char === '?' || char === '[') wildcards++;
  const pattern = wildcards > MAX_WILDCARDS ? undefined : globPattern(path.replace(/\*{2,}/g, '*'));
  if (!pattern) return { kind: 'ask', reason: `writes to files a pattern names (${path.slice(0, 80)})` };
  for (const sample of SAMPLES)
    if (pattern.test(sample)) {
      const verdict = verdictOf(staticWord(sample));
      if (verdict?.kind === 'deny')
        return { ...verdict, reason: `${verdict.reason} (the pattern ${path} matches it)` };
    }
  const first = globPattern(`/${path.split('/')[1] ?? ''}`);
  return first && SPECIAL.some((directory) => first.test(`/${directory}`))
    ? { kind: 'ask', reason: `writes to files a pattern names under /dev, /proc or /sys (${path})` }
    : undefined;
}
