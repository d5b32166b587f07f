import { ToolError, type ToolResult, type ToolSpec, fail, isReadOnly } from '@toolplane/core';
import { type ChatClientSettings, requestCompletion } from './chat-client.js';
import type { ModelToolCall } from './completion.js';
import {
  FINAL_REPORT_TOOL,
  internalToolSpecs,
  interpretInternalCall,
  isInternalTool,
} from './internal-tools.js';
import {
  type AgentRunRequest,
  type AgentRunResult,
  type AgentRunner,
  type Announcement,
  RUNNER_SPEC_VERSION,
  type TaskStatus,
  type TokenUsage,
} from './runner-types.js';
import { resultText } from './tool-text.js';

/** Options of {@link createOpenAIRunner}. Every field has a default. */
export interface OpenAIRunnerOptions {
  /** Endpoint root, up to `/v1` (default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`). */
  readonly baseUrl?: string;
  /** Bearer key (default `OPENAI_API_KEY`; none is sent when absent, as local servers expect). */
  readonly apiKey?: string;
  /** Model of runs whose definition names none. */
  readonly model?: string;
  /** Stream answers as server-sent events (default true). */
  readonly stream?: boolean;
  /** One model request, from send to last byte (default 120 000 ms). */
  readonly requestTimeoutMs?: number;
  /** Longest silence inside one answer (default 60 000 ms). */
  readonly idleTimeoutMs?: number;
  /** Largest answer read (default 8 MiB): an endless stream ends here. */
  readonly maxResponseBytes?: number;
  /** Retries of 429, 5xx and connection failures (default 2), with doubling delays from `retryDelayMs` (500). */
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  /** Which tool calls of one answer run at once: consecutive read-only ones (default), all, or none. */
  readonly parallelToolCalls?: 'read-only' | 'all' | 'none';
  /** Extra headers (an organisation, a gateway's key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra fields of every request body (`temperature`, `max_tokens`...). */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Environment read for the defaults (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value))) {
    throw new ToolError('CONFIG_INVALID', `createOpenAIRunner: ${name} must be a number of 0 or more`);
  }
  return value;
}

type ChatMessage = Record<string, unknown>;

function toOpenAITool(spec: ToolSpec): Record<string, unknown> {
  return {
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  };
}

function announcementText(items: readonly Announcement[]): string {
  const lines = items.map((item) => {
    const head = `- ${item.agent} (${item.childId}): ${item.status}`;
    if (item.report) {
      const body = item.report.content ?? JSON.stringify(item.report.contentJson);
      return `${head}, report (${item.report.status}):\n${body}`;
    }
    return item.error ? `${head}: ${item.error.code}: ${item.error.message}` : head;
  });
  return `Results of subagents you spawned:\n${lines.join('\n')}`;
}

function addUsage(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (!b) return a;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

function stopReason(signal: AbortSignal): ToolError {
  const reason = signal.reason as unknown;
  return ToolError.isInstance(reason) ? reason : new ToolError('CANCELLED', 'the run was cancelled');
}

interface Parsed {
  readonly call: ModelToolCall;
  readonly args?: Record<string, unknown>;
  readonly refusal?: ToolResult;
}

function parseCall(call: ModelToolCall, known: ReadonlyMap<string, ToolSpec>): Parsed {
  if (call.problem) {
    return {
      call,
      refusal: fail(
        'INVALID_ARGUMENTS',
        `malformed tool call: ${call.problem}; send a function name and JSON object arguments`,
      ),
    };
  }
  if (!known.has(call.name) && !isInternalTool(call.name)) {
    const names = [...known.keys()].slice(0, 30).join(', ');
    return {
      call,
      refusal: fail(
        'TOOL_NOT_FOUND',
        `"${call.name.slice(0, 100)}" is not one of your tools; you have: ${names}`,
      ),
    };
  }
  let args: unknown;
  try {
    args = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
  } catch (error) {
    return {
      call,
      refusal: fail(
        'INVALID_ARGUMENTS',
        `the arguments of ${call.name} are not valid JSON (${(error as Error).message}); send one JSON object`,
      ),
    };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return {
      call,
      refusal: fail('INVALID_ARGUMENTS', `the arguments of ${call.name} must be a JSON object`),
    };
  }
  return { call, args: args as Record<string, unknown> };
}

/** Splits calls into groups run one after the other; the calls of a group run at once. */
function groupCalls(
  calls: readonly Parsed[],
  known: ReadonlyMap<string, ToolSpec>,
  mode: OpenAIRunnerOptions['parallelToolCalls'],
): Parsed[][] {
  const groups: Parsed[][] = [];
  let current: Parsed[] = [];
  for (const call of calls) {
    const spec = known.get(call.call.name);
    const parallel =
      !call.refusal && spec !== undefined && (mode === 'all' || (mode !== 'none' && isReadOnly(spec)));
    if (parallel) {
      current.push(call);
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [];
    groups.push([call]);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * The reference agent loop against any OpenAI-compatible Chat Completions endpoint: streams
 * answers, runs tool calls through the request's `callTool` (the orchestrator), ends on
 * `agent__final_report`, a handoff, or `maxIterations`.
 *
 * @example
 * const runner = createOpenAIRunner({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5' });
 */
export function createOpenAIRunner(options: OpenAIRunnerOptions = {}): AgentRunner {
  const env =
    options.env ??
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ??
    {};
  const settings: ChatClientSettings = {
    baseUrl: options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
    apiKey: options.apiKey ?? env.OPENAI_API_KEY,
    headers: options.headers ?? {},
    fetch: options.fetch ?? globalThis.fetch,
    stream: options.stream ?? true,
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs, 120_000),
    idleTimeoutMs: positive('idleTimeoutMs', options.idleTimeoutMs, 60_000),
    maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes, 8 * 1024 * 1024),
    maxRetries: positive('maxRetries', options.maxRetries, 2),
    retryDelayMs: positive('retryDelayMs', options.retryDelayMs, 500),
  };
  const parallel = options.parallelToolCalls ?? 'read-only';
  const now = options.now ?? Date.now;

  async function run(request: AgentRunRequest): Promise<AgentRunResult> {
    const model = request.model ?? options.model;
    if (!model) {
      throw new ToolError(
        'CONFIG_INVALID',
        `no model for agent "${request.agent}": set the definition's model or the runner's model option`,
      );
    }
    const known = new Map(request.tools.map((spec) => [spec.name, spec]));
    const internal = internalToolSpecs(request);
    const finalOnly = internal.filter((spec) => spec.name === FINAL_REPORT_TOOL);
    const messages: ChatMessage[] = [
      { role: 'system', content: request.systemPrompt },
      { role: 'user', content: request.task },
    ];
    let usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    let forceFinal = false;
    const step = request.onStep ?? (() => {});
    step({ type: 'run-started', task: request.task, model });

    const deliver = (items: readonly Announcement[]): void => {
      if (items.length === 0) return;
      step({ type: 'announcements-delivered', announcements: items });
      messages.push({ role: 'user', content: announcementText(items) });
    };

    for (let iteration = 1; iteration <= request.maxIterations; iteration++) {
      if (request.signal.aborted) throw stopReason(request.signal);
      if (request.inbox) deliver(request.inbox.take());
      const offered = forceFinal ? finalOnly : [...request.tools, ...internal];
      step({ type: 'model-requested', iteration });
      const message = await requestCompletion(
        settings,
        {
          ...options.body,
          model,
          messages,
          tools: offered.map(toOpenAITool),
          tool_choice: forceFinal ? { type: 'function', function: { name: FINAL_REPORT_TOOL } } : 'auto',
        },
        request.signal,
        (text) => step({ type: 'text-streamed', text }),
      ).catch((error: unknown) => {
        if (request.signal.aborted) throw stopReason(request.signal);
        throw error;
      });
      usage = addUsage(usage, message.usage);
      if (message.usage) request.onUsage?.(message.usage);
      step({
        type: 'message-received',
        text: message.content,
        toolCalls: message.toolCalls.map((call) => ({ id: call.id, name: call.name })),
        ...(message.usage ? { usage: message.usage } : {}),
      });
      if (request.signal.aborted) throw stopReason(request.signal);
      messages.push({
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name || 'unnamed', arguments: call.problem ? '{}' : call.arguments },
              })),
            }
          : {}),
      });

      if (message.toolCalls.length === 0) {
        if (request.inbox && request.inbox.pending() > 0) {
          deliver(
            await request.inbox.next(request.signal).catch(() => {
              throw stopReason(request.signal);
            }),
          );
          continue;
        }
        if (request.report.format !== 'json' && message.content.trim() !== '' && !forceFinal) {
          const report = {
            status: 'success' as const,
            format: request.report.format,
            content: message.content,
            metadata: { via: 'message' },
            ts: now(),
          };
          return { report, iterations: iteration, usage };
        }
        messages.push({ role: 'user', content: `Deliver your answer by calling ${FINAL_REPORT_TOOL}.` });
        continue;
      }

      const parsed = message.toolCalls.map((call) => parseCall(call, known));
      const answers = new Map<string, string>();
      let ended: AgentRunResult | undefined;
      for (const group of groupCalls(parsed, known, parallel)) {
        if (ended) break;
        await Promise.all(
          group.map(async (item) => {
            const { call } = item;
            if (item.refusal || !item.args) {
              answers.set(call.id, resultText(item.refusal ?? fail('INTERNAL', 'unparsed call')));
              step({
                type: 'tool-finished',
                id: call.id,
                tool: call.name,
                ok: false,
                text: answers.get(call.id) ?? '',
                ...(item.refusal && !item.refusal.ok ? { error: item.refusal.error } : {}),
              });
              return;
            }
            if (isInternalTool(call.name)) {
              const outcome = interpretInternalCall(call.name, item.args, request, now());
              if (outcome.kind === 'invalid') {
                answers.set(call.id, `INVALID_ARGUMENTS: ${outcome.message}`);
              } else if (outcome.kind === 'report') {
                ended = { report: outcome.report, iterations: iteration, usage };
                answers.set(call.id, 'report delivered');
              } else if (outcome.kind === 'handoff') {
                const report = {
                  status: 'partial' as const,
                  format: request.report.format,
                  content: `handed off to ${outcome.agent}`,
                  ts: now(),
                };
                ended = {
                  report,
                  iterations: iteration,
                  usage,
                  handoff: { agent: outcome.agent, ...(outcome.message ? { message: outcome.message } : {}) },
                };
                answers.set(call.id, `handed off to ${outcome.agent}`);
              } else {
                forceFinal = outcome.forceFinal;
                step({ type: 'status-reported', status: outcome.status as TaskStatus });
                answers.set(call.id, forceFinal ? `recorded; now call ${FINAL_REPORT_TOOL}` : 'recorded');
              }
              return;
            }
            step({ type: 'tool-started', id: call.id, tool: call.name, args: item.args });
            const result = await request.callTool(call.name, item.args);
            const text = resultText(result);
            answers.set(call.id, text);
            step({
              type: 'tool-finished',
              id: call.id,
              tool: call.name,
              ok: result.ok,
              text,
              ...(result.ok ? {} : { error: result.error }),
            });
          }),
        );
      }
      if (ended) return ended;
      if (request.signal.aborted) throw stopReason(request.signal);
      for (const call of message.toolCalls) {
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: answers.get(call.id) ?? 'not run: an earlier call ended the run',
        });
      }
    }
    throw new ToolError(
      'BUDGET_EXCEEDED',
      `agent "${request.agent}" used its ${request.maxIterations} model turns (maxIterations) without calling ${FINAL_REPORT_TOOL}`,
      { details: { limit: 'maxIterations', value: request.maxIterations } },
    );
  }

  return { specificationVersion: RUNNER_SPEC_VERSION, run };
}
