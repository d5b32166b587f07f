import type { AnalysisState } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { inChild } from '../facts/children-and-branches.js';
import type { Scope } from '../scope.js';
import type { ShellWord } from '../words/shell-word.js';

/** ssh options that take a value (`-p PORT`, `-i KEY`, `-o OPTION`...). */
const SSH_WITH_VALUE = 'BbcDEeFIiJLlmOoPpQRSWw';

/** The command line ssh has the remote shell run (its words after the host, joined), if static. */
function remoteCommand(args: readonly ShellWord[]): string | undefined {
  let index = 0;
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord;
    if (word.dynamic) return undefined;
    if (word.text === '--') {
      index++;
      break;
    }
    if (!word.text.startsWith('-') || word.text === '-') break;
    const letters = word.text.slice(1);
    // `-s` runs a subsystem, not a shell command.
    if (letters.includes('s')) return undefined;
    for (let at = 0; at < letters.length; at++) {
      if (!SSH_WITH_VALUE.includes(letters[at] as string)) continue;
      if (at === letters.length - 1) index++;
      break;
    }
  }
  const words = args.slice(index + 1);
  if (words.length === 0 || words.some((word) => word.dynamic)) return undefined;
  return words.map((word) => word.text).join(' ');
}

/**
 * A command ssh runs on another machine is judged by the deny rules (destroying a remote disk is
 * still destroying a disk), in a child of its own; it is not matched against allow rules, which
 * judge `ssh` itself (`ssh *` keeps allowing `ssh host uptime`).
 */
export function inspectRemoteCommand(state: AnalysisState, scope: Scope, command: SimpleCommand): void {
  if (command.name !== 'ssh') return;
  const script = remoteCommand(command.args);
  if (script === undefined) return;
  const remote: AnalysisState = { ...state, commands: [], findings: [], writes: [] };
  inChild(
    state.facts,
    () =>
      state.nested.analyzeScript(
        remote,
        { ...scope, depth: scope.depth + 1, via: [...scope.via, 'ssh'] },
        script,
        command.text,
      ),
    'shell',
  );
  state.findings.push(...remote.findings.filter((finding) => finding.kind === 'deny'));
}
