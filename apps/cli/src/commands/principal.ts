import type { ToolView } from '@toolplane/core';

/** The view of the policy for `--agent`/`--user`/`--channel` options. */
export function viewOf(
  options: { agent?: string; user?: string; channel?: string },
  sessionId = 'cli',
): ToolView {
  return {
    principal: {
      ...(options.agent ? { agentId: options.agent } : {}),
      ...(options.user ? { userId: options.user } : {}),
      ...(options.channel ? { channel: options.channel } : {}),
    },
    session: { id: sessionId, depth: 0 },
  };
}
