import {
  type Principal,
  type SessionInfo,
  type ToolResult,
  type ToolSpec,
  fail,
  failFromError,
} from '@toolplane/core';
import type { CallOptions, ToolsOrchestrator } from '@toolplane/orchestrator';
import type { CompileOptions } from '../dialects/compile-tool.js';
import { type CompiledTools, compileTools } from '../dialects/compile-tools.js';
import type { Dialect } from '../dialects/types.js';

/** The part of the orchestrator an adapter uses. */
export type AdapterOrchestrator = Pick<ToolsOrchestrator, 'listTools' | 'call'>;

/** Options every adapter takes. */
export interface BridgeOptions extends CompileOptions {
  /** Who the model acts for: the tool list is what the policy lets this principal see. */
  readonly principal?: Principal;
  /** The session the calls belong to (`default` when left out). */
  readonly session?: Partial<SessionInfo>;
  /** Only these toolplane names (after policy), in this order; all when left out. */
  readonly tools?: readonly string[];
  /** Options passed to every `orchestrator.call` (timeout, trace, services...). */
  readonly callOptions?: Omit<CallOptions, 'principal' | 'session' | 'signal'>;
}

/** Tools of an orchestrator compiled for one dialect, and calls routed back through it. */
export interface ToolBridge {
  readonly compiled: CompiledTools;
  /** The toolplane spec behind a dialect name. */
  spec(dialectName: string): ToolSpec | undefined;
  /** Runs a call the model made (dialect name, arguments as object or JSON text); never throws. */
  call(
    dialectName: string,
    args: unknown,
    options?: { readonly signal?: AbortSignal; readonly callId?: string },
  ): Promise<ToolResult>;
}

function pick(specs: readonly ToolSpec[], names: readonly string[] | undefined): readonly ToolSpec[] {
  if (!names) return specs;
  const byName = new Map(specs.map((s) => [s.name, s]));
  return names.flatMap((name) => {
    const spec = byName.get(name);
    return spec ? [spec] : [];
  });
}

/**
 * Lists the tools the principal may see, compiles them for a dialect, and routes the model's
 * calls back: name and arguments mapped back, then `orchestrator.call` with the principal,
 * session and abort signal. What every SDK adapter is built on.
 *
 * @example
 * const bridge = createToolBridge(orchestrator, 'openai-strict', { principal: { userId: 'u1' } });
 * const result = await bridge.call(call.function.name, call.function.arguments);
 */
export function createToolBridge(
  orchestrator: AdapterOrchestrator,
  dialect: Dialect,
  options: BridgeOptions = {},
): ToolBridge {
  const view = {
    ...(options.principal ? { principal: options.principal } : {}),
    ...(options.session ? { session: { depth: 0, id: 'default', ...options.session } } : {}),
  };
  const specs = pick(orchestrator.listTools(view), options.tools);
  const compiled = compileTools(specs, dialect, options);
  const byOriginal = new Map(specs.map((s) => [s.name, s]));
  return {
    compiled,
    spec: (dialectName) => {
      const tool = compiled.get(dialectName);
      return tool ? byOriginal.get(tool.originalName) : undefined;
    },
    async call(dialectName, args, callOptions = {}) {
      let restored: { name: string; args: Record<string, unknown> };
      try {
        restored = compiled.restoreCall(dialectName, args);
      } catch (error) {
        return failFromError(error, 'INVALID_ARGUMENTS');
      }
      if (callOptions.signal?.aborted) return fail('CANCELLED', 'the call was cancelled before it started');
      return orchestrator.call(restored.name, restored.args, {
        ...options.callOptions,
        ...(options.principal ? { principal: options.principal } : {}),
        ...(options.session ? { session: options.session } : {}),
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
        ...(callOptions.callId ? { callId: callOptions.callId } : {}),
      });
    },
  };
}
