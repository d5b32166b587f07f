import { type ConfigIssue, formatPath } from './issue.js';
import type { ParsedText } from './positions.js';

/** Paths below which the MCP provider's loader checks keys itself (it refuses `__proto__` by name). */
const isMcpEntry = (path: readonly PropertyKey[]): boolean => path.length === 2 && path[0] === 'mcpServers';

/**
 * Every `"__proto__"` key of our own config, as an issue at its place. The parsers keep such a
 * key as a key (JSON text and YAML can hold one), but a schema map (server names, REST tool
 * names, credentials by scheme, policy agents and channels) copies entries by assignment, which
 * takes `__proto__` as the copy's prototype: the entry was dropped without a word and the config
 * was "valid". Walked with an explicit stack, so a deep document cannot overflow the call stack.
 */
export function protoKeyIssues(
  file: string,
  document: Record<string, unknown>,
  locate: ParsedText['locate'],
  skipTopLevel: (key: string) => boolean,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const stack: { value: unknown; path: PropertyKey[] }[] = [];
  for (const key of Object.keys(document))
    if (key !== '__proto__' && !skipTopLevel(key)) stack.push({ value: document[key], path: [key] });
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof value !== 'object' || value === null || isMcpEntry(path)) continue;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries())
        if (typeof item === 'object' && item !== null) stack.push({ value: item, path: [...path, index] });
      continue;
    }
    for (const key of Object.keys(value)) {
      const at = [...path, key];
      if (key === '__proto__')
        issues.push({
          file,
          ...locate(at),
          path: formatPath(at),
          message:
            'the key "__proto__" cannot be used (a JavaScript object takes it as its prototype, so the entry would be dropped): rename or remove it',
        });
      else stack.push({ value: (value as Record<string, unknown>)[key], path: at });
    }
  }
  return issues;
}
