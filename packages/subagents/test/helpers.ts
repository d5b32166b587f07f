import { type Tool, createLocalProvider, defineTool, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '@toolplane/orchestrator';
import { z } from 'zod';
import {
  type AgentDefinition,
  type AgentStep,
  type OpenAIRunnerOptions,
  type SubagentManager,
  type SubagentManagerOptions,
  createOpenAIRunner,
  createSubagents,
} from '../src/index.js';
import {
  type RecordedRequest,
  type ScriptedModel,
  type ScriptedReply,
  startScriptedModel,
} from '../src/testing/index.js';

/** How many times the model has answered in this conversation (0 on the first request). */
export function turnOf(request: RecordedRequest): number {
  return request.messages.filter((message) => message.role === 'assistant').length;
}

/** The last message's text (a tool result, or the task). */
export function lastText(request: RecordedRequest): string {
  const last = request.messages.at(-1);
  return typeof last?.content === 'string' ? last.content : '';
}

/** A script by model id: the reply for each turn. */
export type Scripts = Record<string, (turn: number, request: RecordedRequest) => ScriptedReply | undefined>;

/** A final report reply. */
export function report(content: string, status = 'success'): ScriptedReply {
  return { toolCalls: [{ name: 'agent__final_report', arguments: { status, format: 'text', content } }] };
}

/** A reply calling one tool. */
export function call(name: string, args: unknown = {}): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** Test tools: echo (read), slow (waits for its cancel), counting tools for parallelism. */
export function testTools(): {
  tools: Tool[];
  state: { running: number; peak: number; slowCancelled: number; slowStarted: number };
} {
  const state = { running: 0, peak: 0, slowCancelled: 0, slowStarted: 0 };
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes text.',
    input: z.object({ text: z.string() }),
    sideEffect: 'read',
    execute: ({ text }) => ok(text),
  });
  const wait = defineTool({
    name: 'wait',
    description: 'Waits a while, counting how many run at once.',
    input: z.object({ ms: z.number() }),
    sideEffect: 'read',
    execute: async ({ ms }) => {
      state.running++;
      state.peak = Math.max(state.peak, state.running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      state.running--;
      return ok('waited');
    },
  });
  const slow = defineTool({
    name: 'slow',
    description: 'Runs until cancelled.',
    input: z.object({}),
    sideEffect: 'mutating',
    execute: (_args, ctx) =>
      new Promise((resolve) => {
        state.slowStarted++;
        const timer = setTimeout(() => resolve(ok('finished')), 60_000);
        ctx.signal.addEventListener('abort', () => {
          state.slowCancelled++;
          clearTimeout(timer);
          resolve(ok('stopped'));
        });
      }),
  });
  const write = defineTool({
    name: 'write_note',
    description: 'Writes a note (mutating).',
    input: z.object({ text: z.string() }),
    sideEffect: 'mutating',
    execute: ({ text }) => ok(`noted ${text}`),
  });
  return { tools: [echo, wait, slow, write], state };
}

/** Options of {@link setup}. */
export interface SetupOptions {
  readonly scripts: Scripts;
  readonly agents?: readonly AgentDefinition[];
  readonly limits?: SubagentManagerOptions['limits'];
  readonly runner?: OpenAIRunnerOptions;
  readonly manager?: Partial<SubagentManagerOptions>;
  readonly tools?: readonly Tool[];
  readonly register?: (orchestrator: ToolsOrchestrator) => void;
}

/** A scripted model, an orchestrator with test tools, and a manager wired to both. */
export interface Harness extends AsyncDisposable {
  readonly model: ScriptedModel;
  readonly orchestrator: ToolsOrchestrator;
  readonly manager: SubagentManager;
  readonly steps: AgentStep[];
  readonly state: ReturnType<typeof testTools>['state'];
  close(): Promise<void>;
}

/** A child definition on its own model id. */
export function agent(name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    name,
    description: `the ${name} agent`,
    systemPrompt: `You are ${name}.`,
    model: `${name}-model`,
    ...extra,
  };
}

export async function setup(options: SetupOptions): Promise<Harness> {
  const model = await startScriptedModel({
    respond: (request) => options.scripts[request.model]?.(turnOf(request), request),
  });
  const orchestrator = createOrchestrator({ timeoutMs: 60_000 });
  const { tools, state } = testTools();
  orchestrator.register(createLocalProvider({ namespace: 't', tools: [...tools, ...(options.tools ?? [])] }));
  options.register?.(orchestrator);
  const steps: AgentStep[] = [];
  const manager = createSubagents({
    orchestrator,
    runner: createOpenAIRunner({
      baseUrl: model.url,
      model: 'root-model',
      env: {},
      maxRetries: 0,
      ...options.runner,
    }),
    agents: options.agents ?? [],
    ...(options.limits ? { limits: options.limits } : {}),
    announce: { debounceMs: 30, maxWaitMs: 1_000 },
    settleMs: 10,
    onStep: (step) => steps.push(step),
    ...options.manager,
  });
  const close = async (): Promise<void> => {
    await manager.close();
    await orchestrator.close();
    await model.close();
  };
  return { model, orchestrator, manager, steps, state, close, [Symbol.asyncDispose]: close };
}

/** Polls `check` every 10 ms, at most `tries` times; resolves when it holds. */
export async function until(check: () => boolean | Promise<boolean>, tries = 1000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not met in time');
}
