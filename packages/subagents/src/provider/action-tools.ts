import {
  PROVIDER_SPEC_VERSION,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  fail,
  ok,
} from '@toolplane/core';
import { describeLimits } from '../manager/limits.js';
import type { SubagentManager } from '../manager/manager.js';
import type { SubagentInfo } from '../manager/records.js';
import { guarded, outcomeResult } from './results.js';

/** The namespace of the action tools (`subagents__spawn`, `subagents__run`, ...). */
export const ACTIONS_NAMESPACE = 'subagents';

function agentsLine(manager: SubagentManager): string {
  const agents = manager.agents.list();
  return agents.length === 0
    ? 'No subagents are defined.'
    : `Agents: ${agents.map((a) => `${a.name} (${a.description})`).join('; ')}.`;
}

function specs(manager: SubagentManager): ToolSpec[] {
  const names = manager.agents.list().map((definition) => definition.name);
  const agent = {
    type: 'string',
    ...(names.length > 0 ? { enum: names } : {}),
    description: 'The subagent to run.',
  };
  const task = { type: 'string', description: 'What it should do, with everything it needs to know.' };
  const limits = describeLimits(manager.limits);
  return [
    {
      name: 'spawn',
      description: `Starts a subagent in the background and returns its id at once; its result arrives later as a message (results close together come as one). ${agentsLine(manager)} ${limits}`,
      inputSchema: {
        type: 'object',
        properties: { agent, task, label: { type: 'string', description: 'A short name for list.' } },
        required: ['agent', 'task'],
      },
      sideEffect: 'spawns',
      groups: ['sessions'],
    },
    {
      name: 'run',
      description: `Runs a subagent and waits for its final report. ${agentsLine(manager)} ${limits}`,
      inputSchema: { type: 'object', properties: { agent, task }, required: ['agent', 'task'] },
      sideEffect: 'spawns',
      groups: ['sessions'],
      timeoutMs: manager.limits.maxWallTimeMs + 10_000,
    },
    {
      name: 'list',
      description: 'Lists the subagents you spawned: id, agent, state, model turns and tokens.',
      inputSchema: { type: 'object', properties: {} },
      sideEffect: 'read',
      groups: ['sessions'],
    },
    {
      name: 'cancel',
      description:
        'Cancels subagents you spawned: one by id, "all", or "last" (the most recent still running), and everything they started.',
      inputSchema: {
        type: 'object',
        properties: { target: { type: 'string', description: 'An id, "all" or "last".' } },
        required: ['target'],
      },
      sideEffect: 'mutating',
      groups: ['sessions'],
    },
    {
      name: 'steer',
      description:
        'Redirects a subagent: cancels it, waits for it to stop, and starts it again in the background with your new message.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string' }, message: { type: 'string' } },
        required: ['id', 'message'],
      },
      sideEffect: 'spawns',
      groups: ['sessions'],
    },
  ];
}

function line(info: SubagentInfo): string {
  const label = info.label ? ` "${info.label}"` : '';
  const error = info.error ? ` (${info.error.code})` : '';
  return `${info.id} ${info.agent}${label}: ${info.state}${error}, ${info.iterations} turns, ${info.usage.totalTokens} tokens`;
}

function text(value: unknown, name: string): string | ToolResult {
  return typeof value === 'string' && value.trim() !== ''
    ? value
    : fail('INVALID_ARGUMENTS', `args.${name}: must be a non-empty string`);
}

async function execute(
  manager: SubagentManager,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  switch (name) {
    case 'spawn':
    case 'run': {
      const agent = text(args.agent, 'agent');
      const task = text(args.task, 'task');
      if (typeof agent !== 'string') return agent;
      if (typeof task !== 'string') return task;
      if (name === 'run') return outcomeResult(await manager.run({ agent, task, parent: ctx }));
      const label = typeof args.label === 'string' ? args.label : undefined;
      const record = manager.spawn({
        agent,
        task,
        ...(label ? { label } : {}),
        background: true,
        parent: ctx,
      });
      return ok(`spawned ${agent} as ${record.id}; its result will arrive as a message`, {
        id: record.id,
        agent,
        state: record.info().state,
      });
    }
    case 'list': {
      const infos = manager.list(ctx.session.id);
      return ok(infos.length === 0 ? 'no subagents' : infos.map(line).join('\n'), { subagents: infos });
    }
    case 'cancel': {
      const target = text(args.target, 'target');
      if (typeof target !== 'string') return target;
      const ids = await manager.cancel(ctx.session.id, target);
      return ok(
        ids.length === 0 ? 'nothing to cancel: no such subagent is running' : `cancelled ${ids.join(', ')}`,
        { cancelled: ids },
      );
    }
    case 'steer': {
      const id = text(args.id, 'id');
      const message = text(args.message, 'message');
      if (typeof id !== 'string') return id;
      if (typeof message !== 'string') return message;
      const record = await manager.steer(ctx, id, message);
      return ok(`steered ${id}: now running as ${record.id} in the background`, {
        id: record.id,
        steeredFrom: id,
      });
    }
    default:
      return fail('TOOL_NOT_FOUND', `subagents has no tool "${name}"`);
  }
}

/**
 * The subagent actions as tools: `subagents__spawn` (background, announced), `subagents__run`
 * (waits), `subagents__list`, `subagents__cancel` (id, all, last), `subagents__steer`.
 *
 * @example
 * orchestrator.register(createActionProvider(manager));
 */
export function createActionProvider(manager: SubagentManager): ToolProvider {
  const listeners = new Set<() => void>();
  const unsubscribe = manager.agents.onChange(() => {
    for (const listener of [...listeners]) listener();
  });
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'agent',
    namespace: ACTIONS_NAMESPACE,
    listTools: () => specs(manager),
    execute: (name, args, ctx) => guarded(() => execute(manager, name, args, ctx)),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      unsubscribe();
    },
  };
}
