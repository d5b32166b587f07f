import type { ToolSpec } from '@toolplane/core';

/** Permission sets (design document 003): what a principal may let tools do. */
export type ToolPermission = 'read' | 'write' | 'execute' | 'network';

/** All permissions, in order. */
export const TOOL_PERMISSIONS: readonly ToolPermission[] = ['read', 'write', 'execute', 'network'];

const BY_SIDE_EFFECT = {
  none: ['read'],
  read: ['read'],
  mutating: ['write'],
  network: ['network'],
  spawns: ['execute'],
} as const satisfies Record<NonNullable<ToolSpec['sideEffect']>, readonly ToolPermission[]>;

const UNKNOWN: readonly ToolPermission[] = ['write', 'execute', 'network'];

/**
 * The permissions a tool needs, from its side-effect class, else its MCP hints. A tool that
 * says nothing about itself needs write, execute and network (the conservative reading, as
 * core's `riskOf` rates it high).
 */
export function requiredPermissions(
  spec: Pick<ToolSpec, 'sideEffect' | 'annotations' | 'commandArgument'>,
): readonly ToolPermission[] {
  if (spec.commandArgument !== undefined) return ['execute'];
  if (spec.sideEffect) return BY_SIDE_EFFECT[spec.sideEffect];
  const hints = spec.annotations;
  if (hints?.destructiveHint === true) return hints.openWorldHint === true ? ['write', 'network'] : ['write'];
  if (hints?.readOnlyHint === true) return hints.openWorldHint === true ? ['read', 'network'] : ['read'];
  return UNKNOWN;
}
