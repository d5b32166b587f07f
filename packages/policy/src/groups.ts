import type { RegisteredTool } from '@toolplane/core';
import type { RefSet } from './refs.js';

/**
 * The groups a tool belongs to, without the `group:` prefix: the spec's own groups, `mcp` and
 * `mcp:<server>` (or `rest`, `rest:<namespace>`) from its provider, and every user-defined
 * group whose references match it.
 */
export function toolGroups(tool: RegisteredTool, userGroups: ReadonlyMap<string, RefSet>): readonly string[] {
  const own = tool.spec.groups ?? [];
  let groups: string[] | undefined;
  const add = (group: string): void => {
    groups ??= [...own];
    if (!groups.includes(group)) groups.push(group);
  };
  const kind = tool.provider.kind;
  if (kind === 'mcp' || kind === 'rest') {
    const scoped = `${kind}:${tool.provider.namespace}`;
    if (!own.includes(kind)) add(kind);
    if (!own.includes(scoped)) add(scoped);
  }
  if (userGroups.size > 0) {
    const base = groups ?? own;
    const matched: string[] = [];
    for (const [name, refs] of userGroups) if (refs.has(tool.name, base)) matched.push(name);
    for (const name of matched) add(name);
  }
  return groups ?? own;
}
