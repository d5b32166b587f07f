import { type ToolResult, fail } from '@toolplane/core';
import { jsonBytes, normalizeArgs } from './call-values.js';
import { callOptionsProblem } from '../check-options.js';
import { shortName } from './short-name.js';
import { callIdProblem, copiedPrincipal, sessionProblem } from './check-caller.js';
import { notFound } from '../registry/not-found.js';
import type { CallOptions } from '../options.js';
import type { ToolRegistry, ToolRoute } from '../registry/registry.js';

/** The `accounting().totals` entry of calls to names that are no tool. */
const UNKNOWN_TOOLS = '(unknown tool)';

/** A call that may run: its route, arguments, their size and its timeout. */
export interface AdmittedCall {
  readonly route: ToolRoute;
  readonly args: Record<string, unknown>;
  readonly bytesIn: number;
  readonly timeoutMs: number;
  /** A frozen copy of the caller's principal, when one was given. */
  readonly principal?: Readonly<Record<string, unknown>>;
}

/** A call refused before it runs: the name to record it under, and the failure. */
export interface RefusedCall {
  readonly tool: string;
  readonly result: ToolResult;
  /** The totals entry (unknown names share one, so invented names cannot grow them without end). */
  readonly totalsKey?: string;
}

/**
 * Checks what a call names and carries before anything runs: a string name that resolves,
 * arguments that are an object JSON can carry, a usable session and principal, and valid call
 * options.
 */
export function admitCall(
  registry: ToolRegistry,
  name: unknown,
  args: unknown,
  given: unknown,
  defaultTimeoutMs: number,
): AdmittedCall | RefusedCall {
  if (typeof name !== 'string') {
    return {
      tool: `(${typeof name})`,
      result: fail(
        'TOOL_NOT_FOUND',
        `a tool name must be a string, not ${typeof name}; list the tools to see what exists`,
      ),
    };
  }
  const route = registry.resolve(name);
  if (!route) return { tool: shortName(name), result: notFound(registry, name), totalsKey: UNKNOWN_TOOLS };
  if (typeof given !== 'object' || given === null) {
    return {
      tool: route.name,
      result: fail(
        'CONFIG_INVALID',
        `the options of a call must be an object { session?, principal?, timeoutMs?, signal?, ... } or left out; got ${given === null ? 'null' : typeof given}`,
      ),
    };
  }
  const options = given as CallOptions;
  const parsedArgs = normalizeArgs(args);
  const bytesIn = typeof parsedArgs === 'string' ? 0 : jsonBytes(parsedArgs);
  if (typeof parsedArgs === 'string' || typeof bytesIn === 'string') {
    return {
      tool: route.name,
      result: fail(
        'INVALID_ARGUMENTS',
        `arguments for ${route.name} ${typeof parsedArgs === 'string' ? parsedArgs : bytesIn}`,
      ),
    };
  }
  let principal: Readonly<Record<string, unknown>> | undefined;
  if (options.session !== undefined || options.principal !== undefined || options.callId !== undefined) {
    const where = `a call to ${route.name}`;
    const copy = options.principal === undefined ? undefined : copiedPrincipal(options.principal, where);
    const badCaller =
      sessionProblem(options.session, where) ??
      (typeof copy === 'string' ? copy : undefined) ??
      callIdProblem(options.callId, where);
    if (badCaller) return { tool: route.name, result: fail('INVALID_ARGUMENTS', badCaller) };
    principal = copy as Readonly<Record<string, unknown>> | undefined;
  }
  const timeoutMs = options.timeoutMs ?? route.timeoutMs ?? defaultTimeoutMs;
  const problem = callOptionsProblem(route, timeoutMs, options);
  if (problem) return { tool: route.name, result: problem };
  return principal === undefined
    ? { route, args: parsedArgs, bytesIn, timeoutMs }
    : { route, args: parsedArgs, bytesIn, timeoutMs, principal };
}
