import { formatOpTree } from '@toolplane/core';
import type { RunOutcome } from '@toolplane/subagents';
import { type CommandContext, writeLine } from '../context.js';
import { EXIT_CODES } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { terminalJson, terminalLine, terminalText } from '../output/terminal-text.js';
import { writeJsonLine } from './step-printer.js';

/** What to do about a run's failure, by its code. */
function hintOf(code: string): string {
  switch (code) {
    case 'PROVIDER_UNAVAILABLE':
      return 'check that the model endpoint runs and answers (model.baseUrl or OPENAI_BASE_URL)';
    case 'TIMEOUT':
      return 'check the model endpoint; raise model.requestTimeoutMs or model.idleTimeoutMs for a slow one';
    case 'RATE_LIMITED':
      return 'the endpoint refused for its rate limit: wait and run again';
    case 'CONFIG_INVALID':
      return 'check the key (model.apiKey or OPENAI_API_KEY) and the model names (model.name, agents.*.model)';
    case 'BUDGET_EXCEEDED':
      return 'raise limits.agents (maxIterations, maxTokensPerChild, maxWallTimeMs) or narrow the task';
    default:
      return 'run with --json to see every step';
  }
}

/**
 * The exit code of a run: 0 for a report with status `success`, 2 for a run that failed on a
 * config problem (a key the endpoint refused, a model it does not know), 1 otherwise.
 */
export function exitCodeOf(outcome: RunOutcome): number {
  if (outcome.status === 'completed')
    return outcome.report?.status === 'success' ? EXIT_CODES.ok : EXIT_CODES.toolError;
  return outcome.error?.code === 'CONFIG_INVALID' ? EXIT_CODES.usage : EXIT_CODES.toolError;
}

/**
 * Prints how a run ended: with `json`, one `{"type":"outcome",...}` line on stdout; otherwise the
 * report on stdout and a summary (and the operation tree with `trace`) on stderr. A failed run's
 * error is one `toolplane: error: CODE: message` line and a hint on stderr, as every command's.
 */
export function printOutcome(
  context: CommandContext,
  outcome: RunOutcome,
  options: { readonly json: boolean; readonly trace: boolean; readonly redact: (text: string) => string },
): void {
  const style = createStyle(context.stderr);
  const { tree, ...rest } = outcome;
  if (options.json)
    writeJsonLine(context.stdout, { type: 'outcome', ...rest, ...(options.trace ? { tree } : {}) });
  else if (outcome.report) {
    const { content, contentJson } = outcome.report;
    writeLine(
      context.stdout,
      content !== undefined ? terminalText(content) : terminalJson(JSON.stringify(contentJson, null, 2)),
    );
  }
  const usage = outcome.usage;
  const summary = [
    outcome.status === 'completed' ? style.green('completed') : style.red(outcome.status),
    ...(outcome.report ? [`report ${terminalLine(outcome.report.status)}`] : []),
    `${usage.modelTurns} model turn(s)`,
    `${usage.toolCalls} tool call(s)`,
    `${usage.totalTokens} tokens`,
    `${usage.runs} agent run(s)`,
  ];
  writeLine(context.stderr, style.dim(summary.join(' · ')));
  if (options.trace && !options.json) {
    writeLine(context.stderr, style.dim('operation tree:'));
    writeLine(context.stderr, terminalText(formatOpTree(tree)));
  }
  if (outcome.error) {
    const message = options.redact(outcome.error.message);
    writeLine(
      context.stderr,
      `${style.red('toolplane: error:')} ${terminalLine(outcome.error.code)}: ${terminalText(message)}`,
    );
    writeLine(context.stderr, `${style.dim('hint:')} ${hintOf(outcome.error.code)}`);
  }
}
