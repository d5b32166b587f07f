import type { ApprovalChannel } from '@toolplane/core';
import { APPROVAL_REPROMPT, approvalAnswer, approvalQuestion } from '@toolplane/policy';
import { terminalLine } from '../output/terminal-text.js';
import type { TerminalReader } from './terminal-reader.js';

/** Unclear answers before the question is denied. */
const ATTEMPTS = 3;

/**
 * Approval questions asked on the shared terminal reader, in turn with the elicitations asked
 * there, in the words of the policy's terminal channel (`approvalQuestion`, `approvalAnswer`),
 * every text of the call made safe for a terminal. No answer in the policy's time, three unclear
 * answers, or a terminal that closed: `deny`, said on the terminal. Lines typed before the
 * question was shown are dropped, so a keystroke meant for an earlier question never approves a
 * call its user has not seen.
 */
export function terminalApprovals(reader: TerminalReader): ApprovalChannel {
  return {
    async request(request, signal) {
      try {
        return await reader.turn(signal, async (ask) => {
          const dropped = reader.discardTypedAhead();
          if (dropped > 0)
            reader.write(`\n(${dropped} line${dropped === 1 ? '' : 's'} typed before this question ignored)`);
          for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
            const line = await ask(
              attempt === 0 ? approvalQuestion(request, terminalLine) : APPROVAL_REPROMPT,
            );
            const answer = approvalAnswer(line);
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
