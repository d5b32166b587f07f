import type { ToolResult, ToolSpec } from '@toolplane/core';
import { type ToolSet, dynamicTool, jsonSchema } from 'ai';
import { describeBlock, resultText } from '../bridge/result-text.js';
import { type AdapterOrchestrator, type BridgeOptions, createToolBridge } from '../bridge/tool-bridge.js';
import type { Dialect } from '../dialects/types.js';

/** Options of {@link createAISDKTools}. */
export interface AISDKToolsOptions extends BridgeOptions {
  /**
   * The schema subset the tools are compiled to, for the provider the model runs on
   * (`openai-strict` with `@ai-sdk/openai` strict tools, `gemini` with `@ai-sdk/google`...);
   * default `openai`, JSON Schema as it is.
   */
  readonly dialect?: Dialect;
  /**
   * Whether a call needs the user's approval first: mapped to the AI SDK's tool approval
   * (`needsApproval`), so `generateText` stops with a `tool-approval-request`.
   */
  readonly needsApproval?: (tool: ToolSpec, input: Record<string, unknown>) => boolean | Promise<boolean>;
}

type ModelOutput =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | {
      type: 'content';
      value: ({ type: 'text'; text: string } | { type: 'image-data'; data: string; mediaType: string })[];
    };

function toModelOutput(result: ToolResult): ModelOutput {
  if (!result.ok) return { type: 'error-text', value: resultText(result) };
  if (!result.content.some((block) => block.type === 'image'))
    return { type: 'text', value: resultText(result) };
  return {
    type: 'content',
    value: result.content.map((block) =>
      block.type === 'image'
        ? { type: 'image-data' as const, data: block.data, mediaType: block.mimeType }
        : { type: 'text' as const, text: describeBlock(block) },
    ),
  };
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/**
 * toolplane's tools as a Vercel AI SDK `ToolSet`: `execute` calls the orchestrator with the
 * AI SDK's abort signal, the output is the `ToolResult` (shown to the model as text, images or
 * an error), and `needsApproval` maps to the AI SDK's tool approval.
 *
 * @example
 * const { text } = await generateText({ model, tools: createAISDKTools(orchestrator), stopWhen: stepCountIs(5), prompt });
 */
export function createAISDKTools(
  orchestrator: AdapterOrchestrator,
  options: AISDKToolsOptions = {},
): ToolSet {
  const bridge = createToolBridge(orchestrator, options.dialect ?? 'openai', options);
  const tools: ToolSet = {};
  for (const compiled of bridge.compiled.tools) {
    const spec = bridge.spec(compiled.name) as ToolSpec;
    const needsApproval = options.needsApproval;
    tools[compiled.name] = dynamicTool({
      description: compiled.description,
      inputSchema: jsonSchema(compiled.parameters ?? { type: 'object', properties: {} }),
      execute: (input, { abortSignal, toolCallId }) =>
        bridge.call(compiled.name, input, {
          ...(abortSignal ? { signal: abortSignal } : {}),
          callId: toolCallId,
        }),
      toModelOutput: ({ output }) =>
        isToolResult(output) ? toModelOutput(output) : { type: 'text', value: JSON.stringify(output) },
      ...(needsApproval
        ? {
            needsApproval: async (input: unknown) =>
              needsApproval(spec, bridge.compiled.restoreCall(compiled.name, input).args),
          }
        : {}),
    });
  }
  return tools;
}
