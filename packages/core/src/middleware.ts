import type { SessionInfo, ToolContext } from './context.js';
import type { Principal } from './principal.js';
import type { ProviderKind } from './provider.js';
import type { ToolResult } from './result.js';
import type { ToolSpec } from './spec.js';

/**
 * Where a middleware sits in the call pipeline, outermost first:
 * `observe` (accounting, telemetry) -> `gate` (policy, approvals, pre-hooks) -> `limit`
 * (rate limits, budgets) -> `validate` (arguments) -> `cache` -> `output` (size cap) ->
 * `transform` (scrubbing) -> queue -> timeout -> provider. Results flow back in reverse, so
 * the size cap sees scrubbed output and the cache stores capped output.
 */
export const MIDDLEWARE_PHASES = [
  'observe',
  'gate',
  'limit',
  'validate',
  'cache',
  'output',
  'transform',
] as const;

/** One of {@link MIDDLEWARE_PHASES}. */
export type MiddlewarePhase = (typeof MIDDLEWARE_PHASES)[number];

/** A tool as the registry holds it: public name, local name, spec and provider. */
export interface RegisteredTool {
  /** Public name, unique in the registry (`github__search_code`). */
  readonly name: string;
  /** Name inside its provider (`search_code`). */
  readonly localName: string;
  /** The spec, with `name` set to the public name. */
  readonly spec: ToolSpec;
  readonly provider: { readonly namespace: string; readonly kind: ProviderKind };
}

/** One call as it travels through the pipeline. Middleware passes a modified copy to `next`. */
export interface ToolCall {
  readonly tool: RegisteredTool;
  readonly args: Record<string, unknown>;
  readonly ctx: ToolContext;
}

/** Continues the pipeline. */
export type NextMiddleware = (call: ToolCall) => Promise<ToolResult>;

/** Who is looking at the tool list. */
export interface ToolView {
  readonly principal: Principal;
  readonly session: SessionInfo;
}

/**
 * An extension of the call pipeline: policy, scrubbing, approvals, hooks and caches plug in
 * here without the orchestrator knowing them.
 *
 * @example
 * const logCalls: Middleware = {
 *   name: 'log-calls',
 *   phase: 'observe',
 *   async handle(call, next) {
 *     const result = await next(call);
 *     console.log(call.tool.name, result.ok);
 *     return result;
 *   },
 * };
 */
export interface Middleware {
  readonly name: string;
  readonly phase: MiddlewarePhase;
  /** Wraps a call. Must return a result (never throw) and call `next` at most once per attempt. */
  handle?(call: ToolCall, next: NextMiddleware): Promise<ToolResult>;
  /** Narrows the tools a principal sees (and may call). */
  filterTools?(tools: readonly RegisteredTool[], view: ToolView): readonly RegisteredTool[];
  /** Told the full registry whenever it changes (for example to learn new MCP servers). */
  onToolsChanged?(tools: readonly RegisteredTool[]): void;
  close?(): Promise<void>;
}
