import type { ApprovalChannel } from '@toolplane/core';
import type { ElicitationChannel } from '@toolplane/mcp-provider';
import type { CommandContext } from '../context.js';

/** Who answers `agent run`'s questions, and what releases the terminal when the run ends. */
export interface AgentPrompts {
  readonly approvals?: ApprovalChannel;
  readonly elicitation?: ElicitationChannel;
  close(): void;
}

/**
 * Where `agent run`'s questions go (its own approvals and, naming the subagent, its subagents';
 * the MCP servers' elicitations): `--yes` answers every approval "allow once" (deny rules and the
 * mode still decide first); with stdin and stderr a terminal, the person there is asked, one
 * question at a time on one shared reader; otherwise nobody is there: `ask` decisions fail closed
 * with `APPROVAL_REQUIRED` (which the model reads) and elicitations are declined, saying why.
 */
export async function agentPrompts(
  context: CommandContext,
  options: { readonly yes: boolean; readonly timeoutMs: number },
): Promise<AgentPrompts> {
  const tty = context.stdin.isTTY === true && context.stderr.isTTY === true;
  if (!tty)
    return options.yes ? { approvals: { request: async () => 'allow-once' }, close() {} } : { close() {} };
  const { createTerminalReader } = await import('../prompts/terminal-reader.js');
  const { terminalElicitation } = await import('../prompts/terminal-elicitation.js');
  const reader = createTerminalReader(context.stdin, context.stderr);
  const approvals: ApprovalChannel = options.yes
    ? { request: async () => 'allow-once' }
    : (await import('../prompts/terminal-approvals.js')).terminalApprovals(reader);
  return {
    approvals,
    elicitation: terminalElicitation(reader, { timeoutMs: options.timeoutMs }),
    close: () => reader.close(),
  };
}
