import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { normalizePath } from '../paths/paths.js';
import { withText } from '../words/shell-word.js';
import { judgeWrittenFile } from './written-files.js';

/**
 * `rsync --write-devices` writes file contents into the devices it finds at the destination
 * (without it, rsync replaces a device node by a regular file and no disk is written). The
 * destination is its last operand, on this machine or another (`host:/dev/sda`): a device or a
 * directory holding devices (`/`, `/dev`) is denied, one named at run time is asked.
 * `--copy-devices` only reads devices, as `cp /dev/sda backup.img` does. Returns whether it denied.
 */
export function checkRsyncDevices(state: AnalysisState, command: SimpleCommand): boolean {
  if (command.name !== 'rsync') return false;
  if (!command.args.some((word) => !word.dynamic && word.text === '--write-devices')) return false;
  const operands = command.args.filter((word) => word.dynamic || !word.text.startsWith('-'));
  const last = operands[operands.length - 1];
  if (!last || operands.length < 2) return false;
  if (last.dynamic && !last.text.includes('/dev')) {
    notUnderstood(state, 'rsync --write-devices into a destination named at run time', command.text);
    return false;
  }
  // `[user@]host:path` names a path on another machine; `host::module` and `rsync://` do not.
  const remote = /^[^/:]*:(?!:)(.*)$/.exec(last.text);
  const path = remote ? (remote[1] as string) : last.text;
  const destination = remote ? withText(last, path) : last;
  const normalized = normalizePath(path);
  if (!last.dynamic && (normalized === '/' || normalized === '/dev')) {
    report(
      state,
      'deny',
      'disk-destruction',
      `rsync --write-devices writes into the device files under ${normalized}`,
      command.text,
    );
    return true;
  }
  return judgeWrittenFile(state, destination, command.text);
}
