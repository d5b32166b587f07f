import { type ApprovalDecision, type ApprovalRequest, terminalLine } from '@toolplane/core';

/** Answers by what is typed (a Map: `constructor` is no answer, as in a plain object it would be). */
const ANSWERS: ReadonlyMap<string, ApprovalDecision> = new Map([
  ['o', 'allow-once'],
  ['once', 'allow-once'],
  ['y', 'allow-once'],
  ['yes', 'allow-once'],
  ['a', 'allow-always'],
  ['always', 'allow-always'],
  ['d', 'deny'],
  ['n', 'deny'],
  ['no', 'deny'],
  ['deny', 'deny'],
]);

/** What a terminal asks after an answer it could not read. */
export const APPROVAL_REPROMPT = 'Please answer o, a or d: ';

/**
 * The approval question as a terminal shows it: tool, risk, reason, the command or the arguments
 * (cut at 400 characters), what "always" would add, the timeout, and the answers it takes.
 * `clean` is applied to every text that comes from the call (tool name, reason, command,
 * arguments, rule); by default core's `terminalLine`, which shows terminal controls and line
 * breaks as visible escapes, so a call cannot redraw the question it is asked about.
 */
export function approvalQuestion(
  request: ApprovalRequest,
  clean: (text: string) => string = terminalLine,
): string {
  const lines = [
    '',
    `Approval needed: ${clean(request.tool)} (risk ${request.risk})`,
    `  why: ${clean(request.reason)}`,
  ];
  if (request.command !== undefined) lines.push(`  command: ${clean(request.command)}`);
  else lines.push(`  arguments: ${clean(JSON.stringify(request.args).slice(0, 400))}`);
  if (request.suggestedRule) lines.push(`  "always" adds: ${clean(request.suggestedRule)}`);
  lines.push(`  (no answer in ${Math.round(request.timeoutMs / 1000)} s denies)`);
  return `${lines.join('\n')}\nAllow [o]nce, [a]lways, or [d]eny? `;
}

/**
 * The decision a typed line gives: `o`/`once`/`y`/`yes` allow once, `a`/`always` allow always,
 * `d`/`n`/`no`/`deny` deny (case and surrounding blanks ignored); anything else is undefined.
 */
export function approvalAnswer(line: string): ApprovalDecision | undefined {
  return ANSWERS.get(line.trim().toLowerCase());
}
