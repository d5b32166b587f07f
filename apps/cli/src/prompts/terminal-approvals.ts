import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';
import { terminalLine } from '../output/terminal-text.js';
import type { TerminalReader } from './terminal-reader.js';

/** Unclear answers before the question is denied. */
const ATTEMPTS = 3;

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

function question(request: ApprovalRequest): string {
  const lines = [
    '',
    `Approval needed: ${terminalLine(request.tool)} (risk ${request.risk})`,
    `  why: ${terminalLine(request.reason)}`,
  ];
  if (request.command !== undefined) lines.push(`  command: ${terminalLine(request.command)}`);
  else lines.push(`  arguments: ${terminalLine(JSON.stringify(request.args).slice(0, 400))}`);
  if (request.suggestedRule) lines.push(`  "always" adds: ${terminalLine(request.suggestedRule)}`);
  lines.push(`  (no answer in ${Math.round(request.timeoutMs / 1000)} s denies)`);
  return `${lines.join('\n')}\nAllow [o]nce, [a]lways, or [d]eny? `;
}

/**
 * Approval questions asked on the shared terminal reader, in turn with the elicitations asked
 * there: `o`/`once`/`y`, `a`/`always`, `d`/`n`/`deny`. No answer in the policy's time, three
 * unclear answers, or a terminal that closed: `deny`, said on the terminal.
 */
export function terminalApprovals(reader: TerminalReader): ApprovalChannel {
  return {
    async request(request, signal) {
      try {
        return await reader.turn(signal, async (ask) => {
          for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
            const line = await ask(attempt === 0 ? question(request) : 'Please answer o, a or d: ');
            const answer = ANSWERS.get(line.trim().toLowerCase());
            if (answer) return answer;
          }
          return 'deny';
        });
      } catch (error) {
        reader.write(`\n(${terminalLine(request.tool)} denied: ${(error as Error).message})\n`);
        return 'deny';
      }
    },
  };
}
