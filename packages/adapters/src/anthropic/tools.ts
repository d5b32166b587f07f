import type {
  ContentBlock,
  ImageBlockParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ToolResult } from '@toolplane/core';
import type { CompiledTools } from '../dialects/compile-tools.js';
import { toAnthropicTool } from '../dialects/definitions.js';
import { type AdapterOrchestrator, type BridgeOptions, createToolBridge } from '../bridge/tool-bridge.js';
import { describeBlock, resultText } from '../bridge/result-text.js';

/** toolplane tools for `messages.create`. */
export interface AnthropicTools {
  /** The `tools` array. */
  readonly tools: Tool[];
  readonly compiled: CompiledTools;
  /**
   * Runs the `tool_use` blocks of an assistant message and answers the `tool_result` blocks
   * for the next user message (images as image blocks, failures with `is_error`).
   */
  handleToolUse(
    message: { readonly content: readonly ContentBlock[] },
    options?: { readonly signal?: AbortSignal },
  ): Promise<ToolResultBlockParam[]>;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function resultBlock(toolUseId: string, result: ToolResult): ToolResultBlockParam {
  if (!result.ok)
    return { type: 'tool_result', tool_use_id: toolUseId, is_error: true, content: resultText(result) };
  const content: (TextBlockParam | ImageBlockParam)[] = result.content.map((block) =>
    block.type === 'image' && IMAGE_TYPES.has(block.mimeType)
      ? {
          type: 'image',
          source: { type: 'base64', media_type: block.mimeType as 'image/png', data: block.data },
        }
      : { type: 'text', text: describeBlock(block) },
  );
  if (content.length === 0) content.push({ type: 'text', text: resultText(result) || '(no output)' });
  return { type: 'tool_result', tool_use_id: toolUseId, content };
}

/**
 * toolplane's tools as Anthropic tools; `tool_use` blocks run through the orchestrator and come
 * back as `tool_result` blocks.
 *
 * @example
 * const toolset = createAnthropicTools(orchestrator);
 * const reply = await client.messages.create({ model, max_tokens: 1024, messages, tools: toolset.tools });
 * messages.push({ role: 'assistant', content: reply.content }, { role: 'user', content: await toolset.handleToolUse(reply) });
 */
export function createAnthropicTools(
  orchestrator: AdapterOrchestrator,
  options: BridgeOptions = {},
): AnthropicTools {
  const bridge = createToolBridge(orchestrator, 'anthropic', options);
  return {
    tools: bridge.compiled.tools.map((tool) => toAnthropicTool(tool) as Tool),
    compiled: bridge.compiled,
    async handleToolUse(message, callOptions = {}) {
      const uses = message.content.filter((block) => block.type === 'tool_use');
      return Promise.all(
        uses.map(async (use) =>
          resultBlock(
            use.id,
            await bridge.call(use.name, use.input, {
              ...(callOptions.signal ? { signal: callOptions.signal } : {}),
            }),
          ),
        ),
      );
    },
  };
}
