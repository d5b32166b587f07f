import { userInfo } from 'node:os';
import { type ApprovalChannel, formatOpTree } from '@toolplane/core';
import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES, usageError } from '../output/cli-error.js';
import { printResult } from '../output/result.js';
import { createStyle } from '../output/style.js';
import { terminalText } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { readCallArguments } from './read-args.js';

function currentUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * The person who typed `tools call NAME` approved exactly that call: `ask` decisions for that
 * tool are answered "allow once"; anything else that asks (a tool the call starts, a batch's
 * members) is denied. Deny rules are decided before approvals, so they still apply.
 */
function commandLineApproval(toolName: () => string | undefined): ApprovalChannel {
  return {
    request: async (request) => (request.tool === toolName() ? 'allow-once' : 'deny'),
  };
}

/** `toolplane tools call <name>`: one call through the full pipeline. */
export async function toolsCall(
  context: CommandContext,
  name: string,
  options: { args?: string; trace?: boolean; json?: boolean; timeout?: string },
): Promise<number> {
  let timeoutMs: number | undefined;
  if (options.timeout !== undefined) {
    // digits only: Number() would also take "0x10" (16 ms), " 5" and "1e3"
    timeoutMs = /^\d+$/.test(options.timeout) ? Number(options.timeout) : Number.NaN;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
      throw usageError(
        `--timeout must be a positive whole number of milliseconds, got ${options.timeout}`,
        'for example --timeout 30000 (30 seconds)',
      );
  }
  const args = await readCallArguments(options.args, context);
  const loaded = await loadConfig(context.cwd, context.configPath);
  let resolvedName: string | undefined;
  // a server's questions (elicitation) go to the person at the terminal, when there is one
  const terminal =
    context.stdin.isTTY && context.stderr.isTTY
      ? (await import('../prompts/terminal-reader.js')).createTerminalReader(context.stdin, context.stderr)
      : undefined;
  const elicitation = terminal
    ? (await import('../prompts/terminal-elicitation.js')).terminalElicitation(terminal, {
        timeoutMs: loaded.config.limits.approvalTimeoutMs,
      })
    : undefined;
  try {
    return await withRuntime(
      loaded,
      {
        approvals: commandLineApproval(() => resolvedName),
        ...(elicitation ? { mcpClient: { elicitation } } : {}),
      },
      async (runtime, stopped) => {
        const { orchestrator } = runtime;
        resolvedName = orchestrator.listRegistered().find((tool) => tool.name === name)?.name ?? name;
        const sessionId = `cli-${process.pid}`;
        const user = currentUser();
        const result = await orchestrator.call(name, args, {
          session: { id: sessionId },
          principal: { agentId: 'cli', channel: 'cli', ...(user ? { userId: user } : {}) },
          ...(timeoutMs ? { timeoutMs } : {}),
          signal: stopped,
        });
        // stopped by a signal: the signal's line says what happened; no result of the cut call
        if (stopped.aborted) return EXIT_CODES.toolError;
        if (options.json) writeJson(context.stdout, result);
        else printResult(result, context);
        if (options.trace) {
          const tree = orchestrator.operationTree(sessionId);
          const style = createStyle(context.stderr);
          writeLine(context.stderr, style.dim('operation tree:'));
          writeLine(context.stderr, tree ? terminalText(formatOpTree(tree)) : '(no operation tree recorded)');
        }
        if (result.ok) return EXIT_CODES.ok;
        return result.error.code === 'TOOL_NOT_FOUND' ? EXIT_CODES.usage : EXIT_CODES.toolError;
      },
    );
  } finally {
    terminal?.close();
  }
}
