import { type Middleware, type RegisteredTool, ToolError, type ToolView } from '@toolplane/core';
import { DEFAULT_SESSION_ID, copiedPrincipal, sessionProblem } from '../call/check-caller.js';
import { shortName } from '../call/short-name.js';
import { thrownMessage } from '../call/thrown.js';

/**
 * A whole view from the partial one `listTools(view)` takes (no principal: an empty one; no
 * session id: the default session); `INVALID_ARGUMENTS` when it is not a view or its session
 * or principal cannot be used.
 */
export function fullView(view: Partial<ToolView>): ToolView {
  if (typeof view !== 'object' || view === null || Array.isArray(view)) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `listTools(view) needs a view object { principal?, session? } or none; got ${Array.isArray(view) ? 'an array' : typeof view}`,
    );
  }
  try {
    return readView(view);
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    // a getter or a Proxy in the view threw
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `listTools(view) needs a view object { principal?, session? } whose fields can be read; reading it threw: ${thrownMessage(error)}. Pass a plain object`,
    );
  }
}

function readView(view: Partial<ToolView>): ToolView {
  const sessionBad = sessionProblem(view.session, 'listTools(view)');
  if (sessionBad) throw new ToolError('INVALID_ARGUMENTS', sessionBad);
  const principal = view.principal === undefined ? {} : copiedPrincipal(view.principal, 'listTools(view)');
  if (typeof principal === 'string') throw new ToolError('INVALID_ARGUMENTS', principal);
  const session = view.session;
  return {
    principal,
    session: session
      ? { ...session, id: session.id ?? DEFAULT_SESSION_ID, depth: session.depth ?? 0 }
      : { id: DEFAULT_SESSION_ID, depth: 0 },
  };
}

/**
 * The tools a view sees: each middleware's `filterTools` in turn, guarded. A filter that throws
 * (anything but a `ToolError`, which keeps its code: a filter may refuse a principal) or answers
 * something that is not an array of registered tools is `CONFIG_INVALID` naming it. The list a
 * filter is given is the registry's own, frozen: one that changes it in place throws too.
 */
export function filterTools(
  middleware: readonly Middleware[],
  tools: readonly RegisteredTool[],
  view: ToolView,
  isRegistered: (name: string) => boolean,
): readonly RegisteredTool[] {
  let visible = tools;
  for (const each of middleware) {
    if (each.filterTools) visible = filteredBy(each, each.filterTools, visible, view, isRegistered);
  }
  return visible;
}

function filteredBy(
  middleware: Middleware,
  filter: NonNullable<Middleware['filterTools']>,
  tools: readonly RegisteredTool[],
  view: ToolView,
  isRegistered: (name: string) => boolean,
): readonly RegisteredTool[] {
  let answer: unknown;
  try {
    answer = filter.call(middleware, tools, view);
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    throw broken(middleware, `threw: ${thrownMessage(error)}`, error);
  }
  if (!Array.isArray(answer)) {
    throw broken(middleware, `returned ${answer === null ? 'null' : typeof answer}, not an array of tools`);
  }
  for (let i = 0; i < answer.length; i++) {
    const entry: unknown = answer[i];
    if (!isRegisteredTool(entry)) {
      throw broken(
        middleware,
        `returned an array whose entry ${i} is not a registered tool (an object with a name and a spec)`,
      );
    }
    // a copy (say with a shorter description) is fine; a tool nobody registered cannot be called
    if (!isRegistered(entry.name)) {
      throw broken(
        middleware,
        `returned ${JSON.stringify(shortName(entry.name))}, which is no registered tool (a filter narrows the list; it cannot add to it)`,
      );
    }
  }
  return answer as readonly RegisteredTool[];
}

function isRegisteredTool(value: unknown): value is RegisteredTool {
  if (typeof value !== 'object' || value === null) return false;
  const { name, spec } = value as { name?: unknown; spec?: unknown };
  return typeof name === 'string' && typeof spec === 'object' && spec !== null;
}

function broken(middleware: Middleware, what: string, cause?: unknown): ToolError {
  return new ToolError(
    'CONFIG_INVALID',
    `middleware "${String(middleware.name)}" (${String(middleware.phase)}) filterTools ${what}; this is a bug in that middleware: fix or remove that middleware (listTools() without a view lists every tool)`,
    cause === undefined ? undefined : { cause },
  );
}
