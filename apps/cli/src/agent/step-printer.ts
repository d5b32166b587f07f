import type { AgentStep } from '@toolplane/subagents';
import { type CommandContext, writeLine } from '../context.js';
import { createStyle } from '../output/style.js';
import { terminalJson } from '../output/terminal-text.js';
import { stepText } from './step-text.js';

/** Writes `value` as one JSON line (C1 and bidirectional controls escaped, the same value). */
export function writeJsonLine(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${terminalJson(JSON.stringify(value))}\n`);
}

/**
 * The `onStep` of `agent run`: with `json`, every step as a JSON line on stdout; otherwise a line
 * for a person on stderr, indented by the run's depth (stdout is kept for the report). Once
 * `stopped` aborts (a signal) nothing more is printed: the signal's line says what happened.
 */
export function createStepPrinter(
  context: CommandContext,
  options: { readonly json: boolean; readonly stopped: AbortSignal },
): (step: AgentStep) => void {
  const style = createStyle(context.stderr);
  return (step) => {
    if (options.stopped.aborted) return;
    if (options.json) {
      writeJsonLine(context.stdout, step);
      return;
    }
    const line = stepText(step, style);
    if (line !== undefined) writeLine(context.stderr, `${'  '.repeat(step.depth)}${line}`);
  };
}
