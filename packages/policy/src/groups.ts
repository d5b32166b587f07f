import type { RegisteredTool } from '@toolplane/core';
import type { RefSet } from './refs.js';

/**
 * The groups a tool belongs to, without the `group:` prefix: the spec's own groups, `mcp` and
 * `mcp:<server>` (or `rest`, `rest:<namespace>`) from its provider, and every user-defined
 * group whose references match it.
 */
export function toolGroups(tool: RegisteredTool, userGroups: ReadonlyMap<string, RefSet>): readonly string[] {
  const groups = new Set<string>(tool.spec.groups ?? []);
  const kind = tool.provider.kind;
  if (kind === 'mcp' || kind === 'rest') {
    groups.add(kind);
    groups.add(`${kind}:${tool.provider.namespace}`);
  }
  if (userGroups.size > 0) {
    const base = [...groups];
    for (const [name, refs] of userGroups) if (refs.has(tool.name, base)) groups.add(name);
  }
  return [...groups];
}
