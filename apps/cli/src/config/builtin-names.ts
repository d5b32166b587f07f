// The names in `builtin.tools`, checked against the built-in package's list. Kept out of the
// schema so that the package (web fetch, shell parsing: a third of a command's start-up) loads
// only for a config that lists built-in tools, not for every command.
import { closestKey } from './closest-key.js';
import type { ConfigIssue } from './issue.js';
import type { ParsedText } from './positions.js';

/** `builtin.tools` entries that name no built-in tool, as issues at their positions. */
export async function builtinNameIssues(
  file: string,
  document: Record<string, unknown>,
  locate: ParsedText['locate'],
): Promise<ConfigIssue[]> {
  const builtin = document.builtin;
  if (typeof builtin !== 'object' || builtin === null) return [];
  const tools = (builtin as Record<string, unknown>).tools;
  if (!Array.isArray(tools)) return [];
  const { BUILTIN_TOOL_NAMES } = await import('@toolplane/builtin-fs-shell');
  const known: ReadonlySet<string> = new Set(BUILTIN_TOOL_NAMES);
  const expected = BUILTIN_TOOL_NAMES.map((name) => JSON.stringify(name)).join('|');
  const meant = (name: string): string => {
    const closest = closestKey(name, BUILTIN_TOOL_NAMES);
    return closest === undefined ? '' : ` (did you mean ${JSON.stringify(closest)}?)`;
  };
  const issues: ConfigIssue[] = [];
  for (const [index, name] of tools.entries()) {
    // a value that is not a string is the schema's to report
    if (typeof name !== 'string' || known.has(name)) continue;
    const path = ['builtin', 'tools', index];
    issues.push({
      file,
      ...locate(path),
      path: `builtin.tools[${index}]`,
      message: `Invalid option: expected one of ${expected}${meant(name)}`,
    });
  }
  return issues;
}

/** Issues in the order of the file (line, then column); those without a position last. */
export function byPosition(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const at = (issue: ConfigIssue): number =>
    issue.line === undefined ? Number.POSITIVE_INFINITY : issue.line * 1e6 + (issue.column ?? 0);
  return [...issues].sort((left, right) => at(left) - at(right));
}
