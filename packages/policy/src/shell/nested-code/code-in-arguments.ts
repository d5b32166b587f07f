import type { AnalysisState } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import type { Scope } from '../scope.js';
import { inspectDebuggers } from './debuggers.js';
import { inspectEmbeddedCommands } from './option-commands.js';
import { inspectInlineScripts } from './sed-and-awk.js';
import { inspectRemoteCommand } from './ssh-remote-command.js';

/**
 * Code a program runs from its own arguments, looked for in every command: `sed` and `awk`
 * programs, commands in option values (`git -c core.sshCommand=...`, `ssh -o ProxyCommand=...`),
 * the command ssh runs on another machine, and debugger commands (`gdb -ex 'shell ...'`).
 */
export function inspectCodeInArguments(state: AnalysisState, scope: Scope, command: SimpleCommand): void {
  inspectInlineScripts(state, scope, command);
  inspectEmbeddedCommands(state, scope, command);
  inspectRemoteCommand(state, scope, command);
  inspectDebuggers(state, scope, command);
}
