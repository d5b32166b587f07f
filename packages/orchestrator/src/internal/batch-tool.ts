import {
  type Tool,
  type ToolContext,
  type ToolError,
  type ToolResult,
  contentText,
  fail,
  ok,
} from '@toolplane/core';
import { shortName } from '../call/short-name.js';

/** What the batch tool needs from the orchestrator. */
export interface BatchHost {
  /** Runs a call as a child of `parent` (same session, principal, signal; call path extended). */
  callFrom(parent: ToolContext, name: string, args: unknown): Promise<ToolResult>;
  /** The public name of a tool and whether it changes nothing; undefined when unknown. */
  describe(name: string): { readonly name: string; readonly readOnly: boolean } | undefined;
  /**
   * Gives the running call `ctx` its own answer to a stop (instead of the bare failure; undefined
   * keeps the failure); returns the remover.
   */
  answerOnStop(ctx: ToolContext, answer: (reason: ToolError) => ToolResult | undefined): () => void;
}

type BatchCall = { tool: string; args?: unknown };

/** Calls per batch at most. */
export const MAX_BATCH_CALLS = 32;

/** The queue of batches (not configured, so unlimited; nothing else runs in it). */
const BATCH_QUEUE = 'toolplane-batch';

/**
 * The `batch` tool: several calls in one, each through the full pipeline (policy, queues,
 * limits). Consecutive read-only calls run in parallel; a call that changes state runs alone,
 * in order.
 */
export function createBatchTool(host: BatchHost): Tool {
  return {
    spec: {
      name: 'batch',
      description:
        'Runs several tool calls in one step and returns every result in order. Read-only calls run in parallel; ' +
        `calls that change state run one at a time in the order given. At most ${MAX_BATCH_CALLS} calls.`,
      inputSchema: {
        type: 'object',
        properties: {
          calls: {
            type: 'array',
            minItems: 1,
            maxItems: MAX_BATCH_CALLS,
            items: {
              type: 'object',
              properties: {
                tool: { type: 'string', description: 'Tool name.' },
                args: { type: 'object', description: 'Arguments of that tool.' },
              },
              required: ['tool'],
              additionalProperties: false,
            },
          },
        },
        required: ['calls'],
        additionalProperties: false,
      },
      sideEffect: 'none',
      groups: ['toolplane'],
      // its own lane: a batch in the default queue held a slot its calls waited for (a deadlock
      // under maxConcurrency: 1); the calls in it still take their queues' slots
      queue: BATCH_QUEUE,
    },
    async execute(args, ctx) {
      // checked here too: with `validation: false` nothing else checks the arguments
      const problem = callsProblem(args.calls);
      if (problem) return fail('INVALID_ARGUMENTS', `${problem}; pass { calls: [{ tool, args? }, ...] }`);
      const calls = args.calls as BatchCall[];
      if (calls.some((call) => host.describe(call.tool)?.name === 'batch')) {
        return fail('INVALID_ARGUMENTS', 'a batch cannot contain another batch; list the calls directly');
      }
      const results: Array<ToolResult | undefined> = new Array(calls.length);
      // the first call not yet started
      let next = 0;
      // at its deadline the batch answers with what finished; a cancelled batch stays CANCELLED
      const removeAnswer = host.answerOnStop(ctx, (reason) =>
        reason.code === 'TIMEOUT'
          ? batchResult(calls, results, (i) => timedOut(reason, i < next))
          : undefined,
      );
      try {
        while (next < calls.length) {
          if (ctx.signal.aborted) break;
          const group: number[] = [next];
          const readOnly = (i: number): boolean =>
            host.describe((calls[i] as BatchCall).tool)?.readOnly === true;
          if (readOnly(next)) {
            while (next + group.length < calls.length && readOnly(next + group.length)) {
              group.push(next + group.length);
            }
          }
          next += group.length;
          await Promise.all(
            group.map(async (i) => {
              const call = calls[i] as BatchCall;
              results[i] = await host.callFrom(ctx, call.tool, call.args ?? {});
            }),
          );
        }
      } finally {
        removeAnswer();
      }
      return batchResult(calls, results, () =>
        fail('CANCELLED', 'the batch was cancelled before this call ran'),
      );
    },
  };
}

/** The batch's answer: every call's result in order (`missing` stands in for the calls without one). */
function batchResult(
  calls: readonly BatchCall[],
  results: ReadonlyArray<ToolResult | undefined>,
  missing: (index: number) => ToolResult,
): ToolResult {
  const structured: Array<{
    tool: string;
    ok: boolean;
    text?: string;
    error?: { code: string; message: string };
  }> = calls.map((call, i) => {
    const result = results[i] ?? missing(i);
    // the name as the model sent it, cut: a megabyte name is not echoed back 32 times
    const tool = shortName(call.tool);
    return result.ok
      ? { tool, ok: true, text: contentText(result.content) }
      : { tool, ok: false, error: { code: result.error.code, message: result.error.message } };
  });
  const text = structured
    .map((entry, i) =>
      entry.ok
        ? `[${i + 1}] ${entry.tool}: ok\n${entry.text ?? ''}`
        : `[${i + 1}] ${entry.tool}: ${entry.error?.code} ${entry.error?.message}`,
    )
    .join('\n\n');
  return ok(text, { results: structured });
}

/** The result of a call the batch's deadline cut off: it was running (stopped) or never started. */
function timedOut(reason: ToolError, started: boolean): ToolResult {
  const timeoutMs = reason.details?.timeoutMs;
  const deadline = typeof timeoutMs === 'number' ? `its deadline (${timeoutMs} ms)` : 'its deadline';
  return fail(
    'TIMEOUT',
    started
      ? `the batch reached ${deadline} before this call finished; it was stopped. The results of the calls that finished are kept; run this one again, alone or with a longer timeoutMs`
      : `the batch reached ${deadline} before this call started; it did not run. Run it again, alone or with a longer timeoutMs`,
  );
}

/** Why `calls` is not a list of calls a batch can run, or undefined. */
function callsProblem(calls: unknown): string | undefined {
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_BATCH_CALLS) {
    const got = Array.isArray(calls) ? String(calls.length) : calls === null ? 'null' : typeof calls;
    return `calls must be an array of 1 to ${MAX_BATCH_CALLS} calls; got ${got}`;
  }
  for (let i = 0; i < calls.length; i++) {
    const call: unknown = calls[i];
    if (typeof call !== 'object' || call === null || Array.isArray(call)) {
      return `calls[${i}] must be an object { tool, args? }; got ${kindOf(call)}`;
    }
    const { tool, args } = call as { tool?: unknown; args?: unknown };
    if (typeof tool !== 'string')
      return `calls[${i}].tool must be a tool name (a string); got ${kindOf(tool)}`;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return `calls[${i}].args must be an object; got ${kindOf(args)}`;
    }
  }
  return undefined;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
