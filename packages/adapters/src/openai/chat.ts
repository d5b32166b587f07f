import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { CompiledTools } from '../dialects/compile-tools.js';
import { toChatCompletionsTool } from '../dialects/definitions.js';
import { type AdapterOrchestrator, type BridgeOptions, createToolBridge } from '../bridge/tool-bridge.js';
import { resultText } from '../bridge/result-text.js';

/** Options of the OpenAI adapters. */
export interface OpenAIToolsOptions extends BridgeOptions {
  /** Strict function calling (Structured Outputs' schema subset); default true. */
  readonly strict?: boolean;
}

/** toolplane tools for `chat.completions.create`. */
export interface OpenAIChatTools {
  /** The `tools` array. */
  readonly tools: ChatCompletionFunctionTool[];
  readonly compiled: CompiledTools;
  /**
   * Runs the tool calls of an assistant message through toolplane and answers the `tool`
   * messages to append, in the calls' order (an empty list when the message has none).
   */
  handleToolCalls(
    message: Pick<ChatCompletionMessage, 'tool_calls'>,
    options?: { readonly signal?: AbortSignal },
  ): Promise<ChatCompletionToolMessageParam[]>;
}

/**
 * toolplane's tools as Chat Completions function tools; the model's tool calls run through the
 * orchestrator and come back as tool messages.
 *
 * @example
 * const toolset = createOpenAIChatTools(orchestrator);
 * const reply = await client.chat.completions.create({ model, messages, tools: toolset.tools });
 * messages.push(reply.choices[0].message, ...(await toolset.handleToolCalls(reply.choices[0].message)));
 */
export function createOpenAIChatTools(
  orchestrator: AdapterOrchestrator,
  options: OpenAIToolsOptions = {},
): OpenAIChatTools {
  const bridge = createToolBridge(
    orchestrator,
    options.strict === false ? 'openai' : 'openai-strict',
    options,
  );
  return {
    tools: bridge.compiled.tools.map((tool) => toChatCompletionsTool(tool) as ChatCompletionFunctionTool),
    compiled: bridge.compiled,
    async handleToolCalls(message, callOptions = {}) {
      const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
      return Promise.all(
        calls.map(async (call) => {
          const result = await bridge.call(call.function.name, call.function.arguments, {
            ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          });
          return { role: 'tool' as const, tool_call_id: call.id, content: resultText(result) };
        }),
      );
    },
  };
}
