import { type Tool, type ToolContext, type ToolResult, contentText, fail, ok } from '@toolplane/core';

/** What the batch tool needs from the orchestrator. */
export interface BatchHost {
  /** Runs a call as a child of `parent` (same session, principal, signal; call path extended). */
  callFrom(parent: ToolContext, name: string, args: unknown): Promise<ToolResult>;
  /** The public name of a tool and whether it changes nothing; undefined when unknown. */
  describe(name: string): { readonly name: string; readonly readOnly: boolean } | undefined;
}

/** Calls per batch at most. */
export const MAX_BATCH_CALLS = 32;

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
    },
    async execute(args, ctx) {
      const calls = args.calls as Array<{ tool: string; args?: unknown }>;
      if (calls.some((call) => host.describe(call.tool)?.name === 'batch')) {
        return fail('INVALID_ARGUMENTS', 'a batch cannot contain another batch; list the calls directly');
      }
      const results: ToolResult[] = new Array(calls.length);
      let index = 0;
      while (index < calls.length) {
        if (ctx.signal.aborted) break;
        const group: number[] = [index];
        const readOnly = (i: number): boolean =>
          host.describe((calls[i] as { tool: string }).tool)?.readOnly === true;
        if (readOnly(index)) {
          while (index + group.length < calls.length && readOnly(index + group.length)) {
            group.push(index + group.length);
          }
        }
        await Promise.all(
          group.map(async (i) => {
            const call = calls[i] as { tool: string; args?: unknown };
            results[i] = await host.callFrom(ctx, call.tool, call.args ?? {});
          }),
        );
        index += group.length;
      }
      for (let i = 0; i < calls.length; i++) {
        results[i] ??= fail('CANCELLED', 'the batch was cancelled before this call ran');
      }
      const structured: Array<{
        tool: string;
        ok: boolean;
        text?: string;
        error?: { code: string; message: string };
      }> = results.map((result, i) => {
        const tool = (calls[i] as { tool: string }).tool;
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
    },
  };
}
