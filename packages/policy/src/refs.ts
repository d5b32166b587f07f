import { ToolError } from '@toolplane/core';
import type { ToolRef } from './config.js';
import { globMatcher } from './glob-match.js';

/** A compiled list of tool references. */
export interface RefSet {
  /** The first reference that matches, or undefined. */
  find(name: string, groups: readonly string[]): ToolRef | undefined;
  /** Whether any reference matches (the fast path of filtering). */
  has(name: string, groups: readonly string[]): boolean;
  readonly size: number;
}

const GROUP_PREFIX = 'group:';

/**
 * Compiles references (`read`, `github__*`, `group:fs`) into sets and prefix maps, so
 * matching a tool costs a few hash lookups whatever the list length; other patterns are tried
 * one by one with {@link globMatcher} (linear in the name, never backtracking).
 */
export function compileRefs(refs: readonly ToolRef[] | undefined, where: string): RefSet {
  const names = new Map<string, ToolRef>();
  const groups = new Map<string, ToolRef>();
  const patterns: ToolRef[] = [];
  if (refs !== undefined && !Array.isArray(refs))
    throw new ToolError('CONFIG_INVALID', `${where} must be an array of tool references, such as ["read"]`);
  for (const ref of refs ?? []) {
    if (typeof ref !== 'string' || ref.trim() === '')
      throw new ToolError(
        'CONFIG_INVALID',
        `${where}: every entry must be a non-empty string (a tool name, pattern or group:name)`,
      );
    if (ref.startsWith(GROUP_PREFIX)) {
      const group = ref.slice(GROUP_PREFIX.length);
      if (!group) throw new ToolError('CONFIG_INVALID', `${where}: "${ref}" names no group; write group:fs`);
      groups.set(group, ref);
    } else if (/[*?]/.test(ref)) patterns.push(ref);
    else names.set(ref, ref);
  }
  // `prefix*` patterns (the common case: `github__*`) are looked up by prefix length in
  // maps; only the other patterns go through one combined regular expression.
  const prefixes = new Map<number, Map<string, ToolRef>>();
  const others: { ref: ToolRef; matches: (name: string) => boolean }[] = [];
  for (const pattern of patterns) {
    const body = pattern.slice(0, -1);
    if (pattern.endsWith('*') && !/[*?]/.test(body)) {
      let byLength = prefixes.get(body.length);
      if (!byLength) {
        byLength = new Map();
        prefixes.set(body.length, byLength);
      }
      byLength.set(body, pattern);
    } else others.push({ ref: pattern, matches: globMatcher(pattern) });
  }
  const prefixLengths = [...prefixes.keys()];
  const findPrefix = (name: string): ToolRef | undefined => {
    for (const length of prefixLengths) {
      if (name.length < length) continue;
      const ref = prefixes.get(length)?.get(name.slice(0, length));
      if (ref) return ref;
    }
    return undefined;
  };
  const hasGroup = (toolGroups: readonly string[]): ToolRef | undefined => {
    if (groups.size === 0) return undefined;
    for (const group of toolGroups) {
      const ref = groups.get(group);
      if (ref) return ref;
    }
    return undefined;
  };
  return {
    size: names.size + groups.size + patterns.length,
    has(name, toolGroups) {
      return (
        names.has(name) ||
        hasGroup(toolGroups) !== undefined ||
        findPrefix(name) !== undefined ||
        others.some((pattern) => pattern.matches(name))
      );
    },
    find(name, toolGroups) {
      const exact = names.get(name);
      if (exact) return exact;
      const group = hasGroup(toolGroups);
      if (group) return group;
      return findPrefix(name) ?? others.find((pattern) => pattern.matches(name))?.ref;
    },
  };
}
