import { ToolError, type ToolSpec } from '@toolplane/core';
import { type CompileOptions, compileTool } from './compile-tool.js';
import { allocateDialectNames } from './names.js';
import { restoreValue } from './restore.js';
import type { CompatReport, CompatStatus, Dialect, DialectTool } from './types.js';

/** A tool call as it comes back from a model, mapped to toolplane's name and argument shape. */
export interface RestoredCall {
  /** The toolplane name to call. */
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A tool list compiled for one dialect. */
export interface CompiledTools {
  readonly dialect: Dialect;
  readonly tools: readonly DialectTool[];
  readonly report: CompatReport;
  /** The compiled tool a dialect name stands for. */
  get(dialectName: string): DialectTool | undefined;
  /**
   * Maps a call in the dialect's shape back: the toolplane name and the arguments as the
   * original schema has them (strict nulls absent, JSON text parsed, enum strings mapped).
   * `args` may be the JSON text the model sent. Throws `TOOL_NOT_FOUND` for an unknown name and
   * `INVALID_ARGUMENTS` for arguments that are not a JSON object.
   */
  restoreCall(dialectName: string, args: unknown): RestoredCall;
}

function parseArguments(args: unknown, tool: string): unknown {
  if (typeof args !== 'string') return args ?? {};
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    throw new ToolError('INVALID_ARGUMENTS', `the arguments of ${tool} are not JSON: send one JSON object`);
  }
}

/**
 * Compiles a tool list for a dialect: names the dialect refuses are mapped (and mapped back),
 * schemas rewritten to its subset, and a report of every change per tool.
 *
 * @example
 * const compiled = compileTools(orchestrator.listTools(), 'openai-strict');
 * const { name, args } = compiled.restoreCall(call.function.name, call.function.arguments);
 * await orchestrator.call(name, args);
 */
export function compileTools(
  specs: readonly ToolSpec[],
  dialect: Dialect,
  options: CompileOptions = {},
): CompiledTools {
  const names = allocateDialectNames(
    specs.map((s) => s.name),
    dialect,
  );
  const tools = specs.map((spec, i) => compileTool(spec, dialect, names[i] as string, options));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const counts: Record<CompatStatus, number> = {
    exact: 0,
    lossless: 0,
    relaxed: 0,
    degraded: 0,
    unrepresentable: 0,
  };
  for (const tool of tools) counts[tool.compat.status]++;
  return {
    dialect,
    tools,
    report: { dialect, entries: tools.map((t) => t.compat), counts },
    get: (dialectName) => byName.get(dialectName),
    restoreCall(dialectName, args) {
      const tool = byName.get(dialectName);
      if (!tool)
        throw new ToolError(
          'TOOL_NOT_FOUND',
          `no tool is named ${JSON.stringify(dialectName)}: call one of the tools you were given`,
        );
      const parsed = parseArguments(args, dialectName);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new ToolError('INVALID_ARGUMENTS', `the arguments of ${dialectName} must be one JSON object`);
      return { name: tool.originalName, args: restoreValue(parsed, tool.restore) as Record<string, unknown> };
    },
  };
}
