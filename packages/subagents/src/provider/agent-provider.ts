import {
  type JsonSchema,
  PROVIDER_SPEC_VERSION,
  type ToolProvider,
  type ToolSpec,
  fail,
} from '@toolplane/core';
import type { AgentDefinition } from '../definitions/definition.js';
import type { SubagentManager } from '../manager/manager.js';
import { guarded, outcomeResult } from './results.js';

/** The namespace of `agent__{name}` tools. */
export const AGENT_NAMESPACE = 'agent';

const DEFAULT_INPUT: JsonSchema = {
  type: 'object',
  properties: {
    task: { type: 'string', description: 'What the subagent should do, with everything it needs to know.' },
    context: { type: 'string', description: 'Optional background the subagent should read first.' },
  },
  required: ['task'],
};

/** The task message a definition's arguments become. */
export function taskFromArguments(definition: AgentDefinition, args: Record<string, unknown>): string {
  if (!definition.inputSchema && typeof args.task === 'string') {
    return typeof args.context === 'string' && args.context !== ''
      ? `${args.task}\n\nContext:\n${args.context}`
      : args.task;
  }
  return `Input:\n${JSON.stringify(args, null, 2)}`;
}

function specOf(definition: AgentDefinition, maxWallTimeMs: number): ToolSpec {
  return {
    name: definition.name,
    description: `Runs the subagent "${definition.name}" on a task and returns its final report: ${definition.description}`,
    inputSchema: definition.inputSchema ?? DEFAULT_INPUT,
    sideEffect: 'spawns',
    groups: ['sessions'],
    // the child's own wall-time budget ends it first, with a clearer error than the call timeout
    timeoutMs: maxWallTimeMs + 10_000,
    meta: { subagent: definition.name },
  };
}

/**
 * The AgentProvider of design document 001: one `agent__{name}` tool per definition, each a
 * synchronous run of that subagent through the manager (every limit applies).
 *
 * @example
 * orchestrator.register(createAgentProvider(manager)); // agent__researcher, agent__writer...
 */
export function createAgentProvider(manager: SubagentManager): ToolProvider {
  const listeners = new Set<() => void>();
  const unsubscribe = manager.agents.onChange(() => {
    for (const listener of [...listeners]) listener();
  });
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'agent',
    namespace: AGENT_NAMESPACE,
    listTools: () =>
      manager.agents.list().map((definition) => specOf(definition, manager.limits.maxWallTimeMs)),
    execute(name, args, ctx) {
      const definition = manager.agents.get(name);
      if (!definition) return Promise.resolve(fail('TOOL_NOT_FOUND', `there is no subagent named "${name}"`));
      return guarded(async () =>
        outcomeResult(
          await manager.run({ agent: name, task: taskFromArguments(definition, args), parent: ctx }),
        ),
      );
    },
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
