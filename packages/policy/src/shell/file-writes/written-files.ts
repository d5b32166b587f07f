import { type AnalysisState, notUnderstood, report } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { descriptorOf } from '../paths/descriptors.js';
import { placedReadings } from '../paths/placed-readings.js';
import { argumentLists } from '../rules/argument-lists.js';
import type { ShellWord } from '../words/shell-word.js';
import { globVerdict } from './glob-targets.js';
import { writtenFiles } from './program-writes.js';
import { judgeProtectedWrite } from './protected-writes.js';
import { may, verdictOf, verdictOfFields } from './write-verdicts.js';

/**
 * Judges one file a command line writes (by a redirect or by a command such as `tee`): a block
 * device, kernel memory or the SysRq trigger is denied; the SysRq setting, or a device or
 * kernel file named at run time, is asked. The word is also read with the values its variables
 * were given earlier in the line and in every directory a `cd` may have led to: denied when
 * every reading writes a device, asked when some do; a protected path is asked. Returns whether
 * it was denied.
 */
export function judgeWrittenFile(state: AnalysisState, target: ShellWord, text: string): boolean {
  judgeProtectedWrite(state, target, text);
  const placed = placedReadings(state.facts, target);
  // `/dev/fd/3`, `/dev/stdin`, also through `cd /dev` or a link: the file open on that
  // descriptor is opened again, for writing.
  for (const path of [target, ...(placed ?? []).flat()]) if (judgeDescriptor(state, path, text)) return true;
  // `tee /dev/*`, `cd /dev; tee [s]da`: bash writes every file the pattern matches.
  for (const path of [target, ...(placed ?? []).flat()]) {
    const globbed = globVerdict(path);
    if (globbed?.kind === 'deny') {
      report(state, 'deny', globbed.category, globbed.reason, text);
      return true;
    }
    if (globbed) notUnderstood(state, globbed.reason, text);
  }
  const direct = verdictOf(target);
  if (direct?.kind === 'deny') {
    report(state, 'deny', direct.category, direct.reason, text);
    return true;
  }
  const verdicts = (placed ?? []).map(verdictOfFields);
  const denied = verdicts.filter((verdict) => verdict?.kind === 'deny');
  const first = denied[0];
  if (first?.kind === 'deny' && denied.length === verdicts.length) {
    report(state, 'deny', first.category, first.reason, text);
    return true;
  }
  if (first?.kind === 'deny')
    notUnderstood(state, `${may(first.reason)} (a value or directory set earlier in the line)`, text);
  // Readings that are all known say every value the word may take: its run-time parts add nothing.
  const known = target.readings?.every((fields) => fields.every((field) => !field.dynamic)) === true;
  const asked = (known ? undefined : direct) ?? verdicts.find((verdict) => verdict?.kind === 'ask');
  if (asked) notUnderstood(state, asked.reason, text);
  return false;
}

/** A write to a descriptor opened earlier in the line, judged by the file it is open on. */
function judgeDescriptor(state: AnalysisState, path: ShellWord, text: string): boolean {
  const descriptor = descriptorOf(path);
  const opened = descriptor === undefined ? undefined : state.facts.descriptors.get(descriptor);
  if (!opened) return false;
  const through = `(${path.text} is descriptor ${descriptor}, opened earlier in the line)`;
  const verdicts = opened.map(verdictOf);
  const denied = verdicts.find((verdict) => verdict?.kind === 'deny');
  if (denied?.kind === 'deny' && verdicts.every((verdict) => verdict?.kind === 'deny')) {
    report(state, 'deny', denied.category, `${denied.reason} ${through}`, text);
    return true;
  }
  const asked = denied ? { reason: may(denied.reason) } : verdicts.find((verdict) => verdict !== undefined);
  if (asked) notUnderstood(state, `${asked.reason} ${through}`, text);
  return false;
}

/** Judges the files a command writes by its arguments; returns whether one was denied. */
export function checkWrittenFiles(state: AnalysisState, command: SimpleCommand): boolean {
  const lists = argumentLists(command);
  if (lists === 'too-many')
    notUnderstood(state, 'words expand into more argument lists than are followed', command.text);
  if (lists === undefined || lists === 'too-many') {
    for (const file of writtenFiles(command)) if (judgeWrittenFile(state, file, command.text)) return true;
    return false;
  }
  // Each list on its own: the written operand depends on where the fields fall (`cp "${A[@]}"`).
  const outcomes = lists.map((args) => {
    const scratch: AnalysisState = { ...state, findings: [] };
    const denied = writtenFiles({ ...command, args }).some((file) =>
      judgeWrittenFile(scratch, file, command.text),
    );
    return { denied, findings: scratch.findings };
  });
  if (outcomes.every((outcome) => outcome.denied)) {
    state.findings.push(...(outcomes[0]?.findings ?? []));
    return true;
  }
  for (const { findings } of outcomes)
    for (const finding of findings)
      if (finding.kind === 'deny')
        notUnderstood(
          state,
          `${may(finding.reason)} (as the words expand with the values set earlier)`,
          command.text,
        );
      else state.findings.push(finding);
  return false;
}
