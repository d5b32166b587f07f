import type { NormalizedOperation } from './operation-model.js';

/** Which operations to take. Patterns are strings with `*` wildcards, or regular expressions. */
export interface OperationFilter {
  readonly tags?: readonly string[];
  readonly methods?: readonly string[];
  /** Path patterns such as `/repos/*` (`*` matches within a segment, `**` across segments). */
  readonly paths?: readonly (string | RegExp)[];
  readonly operationIds?: readonly (string | RegExp)[];
}

function toRegExp(pattern: string | RegExp, path: boolean): RegExp {
  if (pattern instanceof RegExp) return pattern;
  const escapeRegExp = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const body = path
    ? pattern
        .split('**')
        .map((part) => escapeRegExp(part).replace(/\*/g, '[^/]*'))
        .join('.*')
    : escapeRegExp(pattern).replace(/\*/g, '.*');
  return new RegExp(`^${body}$`);
}

function matchesAny(
  value: string | undefined,
  patterns: readonly (string | RegExp)[],
  path: boolean,
): boolean {
  if (value === undefined) return false;
  return patterns.some((pattern) => toRegExp(pattern, path).test(value));
}

/** True when an operation matches every criterion of the filter that is set. */
export function matchesFilter(operation: NormalizedOperation, filter: OperationFilter): boolean {
  if (filter.tags && !operation.tags.some((tag) => filter.tags?.includes(tag))) return false;
  if (filter.methods && !filter.methods.some((method) => method.toUpperCase() === operation.method))
    return false;
  if (filter.paths && !matchesAny(operation.path, filter.paths, true)) return false;
  if (filter.operationIds && !matchesAny(operation.operationId, filter.operationIds, false)) return false;
  return true;
}

/** True when an operation matches any criterion of an exclude filter. */
export function excludedBy(operation: NormalizedOperation, filter: OperationFilter): boolean {
  if (filter.tags?.some((tag) => operation.tags.includes(tag))) return true;
  if (filter.methods?.some((method) => method.toUpperCase() === operation.method)) return true;
  if (filter.paths && matchesAny(operation.path, filter.paths, true)) return true;
  if (filter.operationIds && matchesAny(operation.operationId, filter.operationIds, false)) return true;
  return false;
}
