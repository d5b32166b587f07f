import type { DialectTool } from './types.js';
import type { Dialect } from './types.js';

const EMPTY_OBJECT = { type: 'object', properties: {} } as const;

/** A Chat Completions function tool (`tools` of `chat.completions.create`). */
export interface ChatCompletionsFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
    readonly strict?: boolean;
  };
}

/** A Responses API function tool (`tools` of `responses.create`). */
export interface ResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly strict: boolean;
}

/** A Chat Completions tool; `strict` when compiled for `openai-strict`. */
export function toChatCompletionsTool(tool: DialectTool): ChatCompletionsFunctionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: { ...(tool.parameters ?? EMPTY_OBJECT) },
      ...(tool.compat.dialect === 'openai-strict' ? { strict: true } : {}),
    },
  };
}

/** A Responses API tool; `strict` when compiled for `openai-strict`. */
export function toResponsesTool(tool: DialectTool): ResponsesFunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: { ...(tool.parameters ?? EMPTY_OBJECT) },
    strict: tool.compat.dialect === 'openai-strict',
  };
}

/** An Anthropic Messages API tool (`input_schema`). */
export function toAnthropicTool(tool: DialectTool): {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
} {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...(tool.parameters ?? EMPTY_OBJECT) },
  };
}

/** A Gemini function declaration (no `parameters` for a tool without arguments). */
export function toGeminiFunctionDeclaration(tool: DialectTool): {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
} {
  return tool.parameters === undefined
    ? { name: tool.name, description: tool.description }
    : { name: tool.name, description: tool.description, parameters: { ...tool.parameters } };
}

/** An MCP tool definition (`tools/list`). */
export function toMcpTool(tool: DialectTool): {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
} {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...(tool.parameters ?? EMPTY_OBJECT) },
  };
}

/** The definition a user pastes into their own call, in the dialect's own form (OpenAI: Chat Completions). */
export function toDefinition(tool: DialectTool, dialect: Dialect = tool.compat.dialect): unknown {
  switch (dialect) {
    case 'openai':
    case 'openai-strict':
      return toChatCompletionsTool(tool);
    case 'anthropic':
      return toAnthropicTool(tool);
    case 'gemini':
      return toGeminiFunctionDeclaration(tool);
    case 'mcp':
      return toMcpTool(tool);
  }
}
