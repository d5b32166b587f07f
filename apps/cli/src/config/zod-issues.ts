// zod's issues of a config as issues with file, line and field path.
import type { z } from 'zod';
import { closestKey } from './closest-key.js';
import { type ConfigIssue, formatPath } from './issue.js';
import type { ParsedText } from './positions.js';
import { knownKeysAt } from './schema-keys.js';

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

/** `unknown field "polciy": did you mean policy?` when a known key is close, else how to fix it. */
function unknownFieldMessage(key: string, known: readonly string[]): string {
  const meant = closestKey(key, known);
  return meant !== undefined
    ? `unknown field "${key}": did you mean ${meant}?`
    : `unknown field "${key}": remove it or check its spelling`;
}

/** zod's issues as config issues; `schema`, when given, names the known keys of an unknown field. */
export function zodIssues(
  file: string,
  parsed: ParsedText,
  error: z.ZodError,
  schema?: z.ZodType,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of flattenIssues(error.issues)) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    // a bad record key ("Invalid key in record"): what is wrong with it is in the key's own issue
    const keyProblem = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
    for (const key of keys) {
      const path = key === undefined ? issue.path : [...issue.path, key];
      const position = parsed.locate(path);
      const message =
        key === undefined
          ? (keyProblem ?? issue.message)
          : unknownFieldMessage(key, schema ? knownKeysAt(schema, issue.path) : []);
      issues.push({ file, ...position, path: formatPath(path), message });
    }
  }
  return issues;
}
