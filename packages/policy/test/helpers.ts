import {
  type PermissionMode,
  type RegisteredTool,
  type ToolCall,
  type ToolSpec,
  type ToolView,
  createToolContext,
} from '@toolplane/core';

/** A registered tool for tests: public name, provider and spec fields. */
export function tool(
  name: string,
  options: Partial<Omit<ToolSpec, 'name'>> & { namespace?: string; kind?: string; localName?: string } = {},
): RegisteredTool {
  const { namespace = 'builtin', kind = 'builtin', localName, ...spec } = options;
  return {
    name,
    localName: localName ?? name,
    spec: { description: `${name} tool`, inputSchema: { type: 'object' }, ...spec, name },
    provider: { namespace, kind },
  };
}

/** A view: agent, channel, depth. */
export function view(agentId?: string, depth = 0, channel?: string): ToolView {
  return {
    principal: { ...(agentId ? { agentId } : {}), ...(channel ? { channel } : {}) },
    session: { id: `session-${agentId ?? 'none'}-${depth}`, depth },
  };
}

/** A call of a tool with arguments, in a session with a mode. */
export function call(
  target: RegisteredTool,
  args: Record<string, unknown> = {},
  session: { id?: string; mode?: PermissionMode; depth?: number; parentId?: string; agentId?: string } = {},
  signal?: AbortSignal,
): ToolCall {
  return {
    tool: target,
    args,
    ctx: createToolContext({
      principal: session.agentId ? { agentId: session.agentId } : {},
      session: {
        id: session.id ?? 'session-test',
        depth: session.depth ?? 0,
        ...(session.mode ? { mode: session.mode } : {}),
        ...(session.parentId ? { parentId: session.parentId } : {}),
      },
      ...(signal ? { signal } : {}),
    }),
  };
}

/** The shell tool as the builtin provider describes it. */
export const bash: RegisteredTool = tool('bash', {
  sideEffect: 'spawns',
  groups: ['runtime'],
  commandArgument: 'command',
});
