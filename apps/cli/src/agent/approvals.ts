import type { ApprovalChannel } from '@toolplane/core';
import type { CommandContext } from '../context.js';

/** An approval channel `agent run` closes when it ends. */
export type ClosableApprovals = ApprovalChannel & { close(): void };

/**
 * Where `agent run`'s approval questions go (its own and, naming the subagent, its subagents'):
 * `--yes` answers every question "allow once" (deny rules and the mode still decide first); with
 * stdin and stderr a terminal, the person there is asked (allow once / always / deny); otherwise
 * nobody is there and `ask` decisions fail closed with `APPROVAL_REQUIRED`, which the model reads.
 */
export async function agentApprovals(
  context: CommandContext,
  yes: boolean,
): Promise<ClosableApprovals | undefined> {
  if (yes) return { request: async () => 'allow-once', close() {} };
  if (!context.stdin.isTTY || !context.stderr.isTTY) return undefined;
  const { createTerminalApprovalChannel } = await import('@toolplane/policy');
  return createTerminalApprovalChannel({ input: context.stdin, output: context.stderr });
}
