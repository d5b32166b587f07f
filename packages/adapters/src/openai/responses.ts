import type {
  FunctionTool,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseOutputItem,
} from 'openai/resources/responses/responses';
import type { ToolResult } from '@toolplane/core';
import type { CompiledTools } from '../dialects/compile-tools.js';
import { toResponsesTool } from '../dialects/definitions.js';
import { type AdapterOrchestrator, createToolBridge } from '../bridge/tool-bridge.js';
import { describeBlock, resultText } from '../bridge/result-text.js';
import type { OpenAIToolsOptions } from './chat.js';

/** toolplane tools for `responses.create`. */
export interface OpenAIResponsesTools {
  /** The `tools` array. */
  readonly tools: FunctionTool[];
  readonly compiled: CompiledTools;
  /**
   * Runs the `function_call` items of a response's output and answers the
   * `function_call_output` items to send as the next input (images as `input_image`).
   */
  handleOutput(
    output: readonly ResponseOutputItem[],
    options?: { readonly signal?: AbortSignal },
  ): Promise<ResponseInputItem.FunctionCallOutput[]>;
}

function outputOf(result: ToolResult): string | ResponseFunctionCallOutputItemList {
  if (!result.ok || !result.content.some((block) => block.type === 'image')) return resultText(result);
  return result.content.map((block) =>
    block.type === 'image'
      ? {
          type: 'input_image' as const,
          detail: 'auto' as const,
          image_url: `data:${block.mimeType};base64,${block.data}`,
        }
      : { type: 'input_text' as const, text: describeBlock(block) },
  );
}

/**
 * toolplane's tools as Responses API function tools; `function_call` items run through the
 * orchestrator and come back as `function_call_output` items.
 *
 * @example
 * const toolset = createOpenAIResponsesTools(orchestrator);
 * const response = await client.responses.create({ model, input, tools: toolset.tools });
 * const outputs = await toolset.handleOutput(response.output);
 */
export function createOpenAIResponsesTools(
  orchestrator: AdapterOrchestrator,
  options: OpenAIToolsOptions = {},
): OpenAIResponsesTools {
  const bridge = createToolBridge(
    orchestrator,
    options.strict === false ? 'openai' : 'openai-strict',
    options,
  );
  return {
    tools: bridge.compiled.tools.map((tool) => toResponsesTool(tool) as FunctionTool),
    compiled: bridge.compiled,
    async handleOutput(output, callOptions = {}) {
      const calls = output.filter((item) => item.type === 'function_call');
      return Promise.all(
        calls.map(async (call) => {
          const result = await bridge.call(call.name, call.arguments, {
            ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          });
          return { type: 'function_call_output' as const, call_id: call.call_id, output: outputOf(result) };
        }),
      );
    },
  };
}
