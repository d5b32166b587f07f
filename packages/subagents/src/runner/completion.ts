import { ToolError } from '@toolplane/core';
import type { TokenUsage } from './runner-types.js';

/** One tool call as the model sent it: arguments are the raw text (JSON, maybe broken). */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** Set when the call was malformed (no name, arguments that are not text). */
  readonly problem?: string;
}

/** The assistant message of one completion. */
export interface ModelMessage {
  readonly content: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage?: TokenUsage;
  readonly finishReason?: string;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Usage from an OpenAI-style `usage` object; undefined when absent. */
export function readUsage(value: unknown): TokenUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  const promptTokens = num(usage.prompt_tokens);
  const completionTokens = num(usage.completion_tokens);
  const total = num(usage.total_tokens);
  return { promptTokens, completionTokens, totalTokens: total || promptTokens + completionTokens };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

let generated = 0;
function syntheticId(): string {
  generated = (generated + 1) % Number.MAX_SAFE_INTEGER;
  return `call_missing_${generated}`;
}

function toolCall(raw: unknown): ModelToolCall {
  const call = asRecord(raw);
  const fn = asRecord(call?.function);
  const id = typeof call?.id === 'string' && call.id !== '' ? call.id : syntheticId();
  const name = typeof fn?.name === 'string' ? fn.name : '';
  const args = fn?.arguments;
  if (!call || !fn) return { id, name, arguments: '', problem: 'a tool call without a "function" object' };
  if (name === '') return { id, name, arguments: '', problem: 'a tool call without a function name' };
  if (args !== undefined && typeof args !== 'string' && asRecord(args) === undefined) {
    return {
      id,
      name,
      arguments: '',
      problem: 'tool call arguments that are neither a JSON string nor an object',
    };
  }
  return {
    id,
    name,
    arguments: typeof args === 'string' ? args : args === undefined ? '{}' : JSON.stringify(args),
  };
}

/** Reads a non-streamed completion body; `EXECUTION_FAILED` when it is not one. */
export function readCompletion(body: unknown): ModelMessage {
  const choices = asRecord(body)?.choices;
  const choice = Array.isArray(choices) ? asRecord(choices[0]) : undefined;
  const message = asRecord(choice?.message);
  if (!message) {
    throw new ToolError('EXECUTION_FAILED', 'the model endpoint answered without choices[0].message');
  }
  const rawCalls = message.tool_calls;
  if (rawCalls !== undefined && rawCalls !== null && !Array.isArray(rawCalls)) {
    throw new ToolError(
      'EXECUTION_FAILED',
      'the model endpoint answered with tool_calls that are not a list',
    );
  }
  const usage = readUsage(asRecord(body)?.usage);
  return {
    content: typeof message.content === 'string' ? message.content : '',
    toolCalls: (rawCalls ?? []).map(toolCall),
    ...(usage ? { usage } : {}),
    ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}

interface PartialCall {
  id: string;
  name: string;
  args: string;
  problem?: string;
}

/** Assembles streamed chunks (`choices[0].delta`) into one message. */
export class StreamAssembler {
  private content = '';
  private readonly calls = new Map<number, PartialCall>();
  private usage: TokenUsage | undefined;
  private finishReason: string | undefined;

  /** Feeds one parsed chunk; returns the text it added (for `text-streamed`). */
  push(chunk: unknown): string {
    const body = asRecord(chunk);
    if (!body)
      throw new ToolError(
        'EXECUTION_FAILED',
        'the model endpoint streamed a chunk that is not a JSON object',
      );
    const usage = readUsage(body.usage);
    if (usage) this.usage = usage;
    const choices = body.choices;
    const choice = Array.isArray(choices) ? asRecord(choices[0]) : undefined;
    if (!choice) return '';
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    const delta = asRecord(choice.delta);
    if (!delta) return '';
    let added = '';
    if (typeof delta.content === 'string') {
      this.content += delta.content;
      added = delta.content;
    }
    const calls = delta.tool_calls;
    if (Array.isArray(calls)) {
      for (const [position, raw] of calls.entries()) this.addCall(position, raw);
    }
    return added;
  }

  private addCall(position: number, raw: unknown): void {
    const call = asRecord(raw);
    const index = typeof call?.index === 'number' ? call.index : position;
    let partial = this.calls.get(index);
    if (!partial) {
      partial = { id: '', name: '', args: '' };
      this.calls.set(index, partial);
    }
    if (!call) {
      partial.problem = 'a streamed tool call that is not an object';
      return;
    }
    if (typeof call.id === 'string' && partial.id === '') partial.id = call.id;
    const fn = asRecord(call.function);
    if (typeof fn?.name === 'string') partial.name += fn.name;
    if (typeof fn?.arguments === 'string') partial.args += fn.arguments;
    else if (fn?.arguments !== undefined) partial.problem = 'streamed tool call arguments that are not text';
  }

  /** The assembled message. */
  finish(): ModelMessage {
    const toolCalls = [...this.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, call]): ModelToolCall => {
        const id = call.id || syntheticId();
        if (call.problem) return { id, name: call.name, arguments: '', problem: call.problem };
        if (call.name === '')
          return { id, name: '', arguments: '', problem: 'a tool call without a function name' };
        return { id, name: call.name, arguments: call.args === '' ? '{}' : call.args };
      });
    return {
      content: this.content,
      toolCalls,
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.finishReason ? { finishReason: this.finishReason } : {}),
    };
  }
}
