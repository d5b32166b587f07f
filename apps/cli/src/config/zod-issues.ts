// zod's issues of a config as issues with file, line and field path.
import type { z } from 'zod';
import { type ConfigIssue, formatPath } from './issue.js';
import type { ParsedText } from './positions.js';

type ZodIssue = z.core.$ZodIssue;

function depthOf(issues: readonly ZodIssue[]): number {
  let depth = 0;
  for (const issue of issues) {
    const nested = issue.code === 'invalid_union' ? 1 + Math.max(0, ...issue.errors.map(depthOf)) : 0;
    depth = Math.max(depth, issue.path.length + nested);
  }
  return depth;
}

/**
 * Replaces a union's "Invalid input" by the issues of the branch that got furthest (the one
 * the user meant), so `builtin.tools[1]` is reported instead of `builtin`.
 */
function flattenIssues(issues: readonly ZodIssue[], prefix: readonly PropertyKey[] = []): ZodIssue[] {
  const out: ZodIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) {
      out.push({ ...issue, path } as ZodIssue);
      continue;
    }
    const depths = issue.errors.map(depthOf);
    const best = Math.max(...depths);
    if (best === 0) {
      const expected = issue.errors.map(
        (branch) => branch[0]?.message.replace(/^Invalid (input|option): /, '') ?? '',
      );
      out.push({ ...issue, path, message: `Invalid input: ${expected.join(', or ')}` } as ZodIssue);
      continue;
    }
    out.push(...flattenIssues(issue.errors[depths.indexOf(best)] ?? [], path));
  }
  return out;
}

export function zodIssues(file: string, parsed: ParsedText, error: z.ZodError): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of flattenIssues(error.issues)) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    for (const key of keys) {
      const path = key === undefined ? issue.path : [...issue.path, key];
      const position = parsed.locate(path);
      const message =
        key === undefined ? issue.message : `unknown field "${key}": remove it or check its spelling`;
      issues.push({ file, ...position, path: formatPath(path), message });
    }
  }
  return issues;
}
