import { userInfo } from 'node:os';
import type { BuiltinProvider } from '@toolplane/builtin-fs-shell';
import type { AgentDefinition } from '@toolplane/subagents';
import { agentPrompts } from '../agent/approvals.js';
import { resolveEndpoint } from '../agent/endpoint.js';
import { exitCodeOf, printOutcome } from '../agent/outcome.js';
import { createStepPrinter } from '../agent/step-printer.js';
import { loadConfig } from '../config/load.js';
import type { ToolplaneConfig } from '../config/schema.js';
import { type CommandContext, writeLine } from '../context.js';
import { EXIT_CODES, configError, usageError } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { terminalLine } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { warningLines } from '../runtime/warnings.js';

function currentUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/** The `agents:` section as the subagent manager's definitions (the name is the key). */
function definitionsOf(config: ToolplaneConfig): AgentDefinition[] {
  return Object.entries(config.agents ?? {}).map(([name, agent]) => ({ name, ...agent }) as AgentDefinition);
}

/** `toolplane agent run "<task>"`: the reference agent runner with the config's tools and subagents. */
export async function agentRun(
  context: CommandContext,
  task: string,
  options: { json?: boolean; yes?: boolean; model?: string; agent?: string; trace?: boolean },
): Promise<number> {
  if (task.trim() === '')
    throw usageError(
      'the task is empty',
      'give the task in quotes: toolplane agent run "Summarise README.md"',
    );
  const loaded = await loadConfig(context.cwd, context.configPath);
  const agents = definitionsOf(loaded.config);
  const root = options.agent === undefined ? undefined : agents.find((agent) => agent.name === options.agent);
  if (options.agent !== undefined && !root)
    throw configError(
      `--agent ${options.agent} names no agent of the config`,
      agents.length > 0
        ? `the config's agents: ${agents.map((agent) => agent.name).join(', ')}`
        : 'define it in the agents section of the config',
    );
  const endpoint = await resolveEndpoint(loaded, {
    model: options.model,
    rootHasModel: root?.model !== undefined,
  });
  const prompts = await agentPrompts(context, {
    yes: options.yes === true,
    timeoutMs: loaded.config.limits.approvalTimeoutMs,
  });
  const { approvals } = prompts;
  const json = options.json === true;
  let stopRun: (() => Promise<void>) | undefined;
  try {
    return await withRuntime(
      loaded,
      {
        onStop: () => stopRun?.() ?? Promise.resolve(),
        ...(prompts.elicitation ? { mcpClient: { elicitation: prompts.elicitation } } : {}),
      },
      async (runtime, stopped) => {
        const { createOpenAIRunner, createSubagents } = await import('@toolplane/subagents');
        if (endpoint.apiKey) runtime.scrubber?.addSecret(endpoint.apiKey);
        const redact = (text: string): string =>
          endpoint.apiKey
            ? runtime.redact(text).split(endpoint.apiKey).join('[REDACTED]')
            : runtime.redact(text);
        const style = createStyle(context.stderr);
        for (const provider of runtime.orchestrator.providers().filter((entry) => entry.state === 'failed'))
          writeLine(
            context.stderr,
            `${style.yellow('warning:')} provider ${terminalLine(provider.namespace)} did not start: ${terminalLine(runtime.redact(provider.error ?? 'unknown error'))}`,
          );
        for (const line of warningLines(runtime.providers))
          writeLine(context.stderr, `${style.yellow('warning:')} ${terminalLine(runtime.redact(line))}`);
        const builtin = runtime.providers.find((entry) => entry.source === 'builtin')?.provider as
          | BuiltinProvider
          | undefined;
        const { model, baseUrl, apiKey, ...tuning } = endpoint;
        const manager = createSubagents({
          orchestrator: runtime.orchestrator,
          runner: createOpenAIRunner({
            baseUrl,
            ...(apiKey ? { apiKey } : {}),
            ...(model ? { model } : {}),
            ...tuning,
          }),
          agents,
          ...(loaded.config.limits.agents ? { limits: loaded.config.limits.agents } : {}),
          // background shell tasks a run started stop when the run ends
          ...(builtin ? { onSessionEnd: (sessionId: string) => builtin.forgetSession(sessionId) } : {}),
        });
        stopRun = () => manager.close();
        try {
          // the agent and subagent tools are registered now: the policy resolves groups by them
          await runtime.orchestrator.warmup({ signal: stopped });
          runtime.policy.setTools(runtime.orchestrator.listRegistered());
          const user = currentUser();
          const outcome = await manager.runAgent({
            task,
            ...(root ? { agent: root.name } : {}),
            ...(model && !root ? { model } : {}),
            sessionId: `agent-${process.pid}`,
            principal: { agentId: root?.name ?? 'main', channel: 'cli', ...(user ? { userId: user } : {}) },
            // the root's approval channel: subagents ask on it, each question naming the subagent
            services: approvals ? { approvals } : {},
            signal: stopped,
            onStep: createStepPrinter(context, { json, stopped }),
          });
          // stopped by a signal: its line says what happened; no report of the cut run
          if (stopped.aborted) return EXIT_CODES.toolError;
          printOutcome(context, outcome, { json, trace: options.trace === true, redact });
          return exitCodeOf(outcome);
        } finally {
          await manager.close();
        }
      },
    );
  } finally {
    prompts.close();
  }
}
