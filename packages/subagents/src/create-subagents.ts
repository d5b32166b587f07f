import { createActionProvider } from './provider/action-tools.js';
import { createAgentProvider } from './provider/agent-provider.js';
import { SubagentManager } from './manager/manager.js';
import type { SubagentManagerOptions } from './manager/options.js';

/**
 * A manager wired into its orchestrator: the `agent__{name}` tools, the `subagents__*` action
 * tools and the gate that keeps each run to its tool list. Call `manager.runAgent()` to run an
 * agent; `manager.close()` before `orchestrator.close()`.
 *
 * @example
 * const orchestrator = createOrchestrator();
 * const manager = createSubagents({ orchestrator, runner: createOpenAIRunner({ model: 'gpt-4.1-mini' }), agents: [researcher] });
 * const outcome = await manager.runAgent({ task: 'Find the TODOs', onStep: (step) => console.log(step.type) });
 */
export function createSubagents(options: SubagentManagerOptions): SubagentManager {
  const manager = new SubagentManager(options);
  options.orchestrator.register(createAgentProvider(manager));
  options.orchestrator.register(createActionProvider(manager));
  options.orchestrator.use(manager.middleware());
  return manager;
}
