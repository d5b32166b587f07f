import { DynamicStructuredTool } from '@langchain/core/tools';
import type { ToolResult } from '@toolplane/core';
import { resultText } from '../bridge/result-text.js';
import { type AdapterOrchestrator, type BridgeOptions, createToolBridge } from '../bridge/tool-bridge.js';
import type { Dialect } from '../dialects/types.js';

/** Options of {@link createLangChainTools}. */
export interface LangChainToolsOptions extends BridgeOptions {
  /** The schema subset for the chat model the tools are bound to; default `openai` (JSON Schema as it is). */
  readonly dialect?: Dialect;
}

/**
 * toolplane's tools as LangChain `StructuredTool`s. Each answers `[text, ToolResult]`
 * (`responseFormat: 'content_and_artifact'`): the model reads the text, the full result is the
 * `ToolMessage`'s artifact. The run's `signal` reaches the orchestrator.
 *
 * @example
 * const tools = createLangChainTools(orchestrator);
 * const message = await tools[0].invoke(aiMessage.tool_calls[0]); // a ToolMessage
 */
export function createLangChainTools(
  orchestrator: AdapterOrchestrator,
  options: LangChainToolsOptions = {},
): DynamicStructuredTool[] {
  const bridge = createToolBridge(orchestrator, options.dialect ?? 'openai', options);
  return bridge.compiled.tools.map(
    (compiled) =>
      new DynamicStructuredTool({
        name: compiled.name,
        description: compiled.description,
        schema: (compiled.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>,
        responseFormat: 'content_and_artifact',
        func: async (input: unknown, _runManager, config): Promise<[string, ToolResult]> => {
          const signal = config?.signal;
          const result = await bridge.call(compiled.name, input, { ...(signal ? { signal } : {}) });
          return [resultText(result), result];
        },
      }),
  );
}
