import type { NormalizedOperation } from './operation-model.js';

/** Which operations to take. Patterns are strings with `*` wildcards, or regular expressions. */
export interface OperationFilter {
  readonly tags?: readonly string[];
  readonly methods?: readonly string[];
  /** Path patterns such as `/repos/*` (`*` matches within a segment, `**` across segments). */
  readonly paths?: readonly (string | RegExp)[];
  readonly operationIds?: readonly (string | RegExp)[];
}

/** A wildcard pattern as a list of characters and wildcards: `*` (any text, within a segment for paths) and `**`. */
type GlobToken = string | { readonly any: 'segment' | 'all' };

function globTokens(pattern: string, path: boolean): GlobToken[] {
  const tokens: GlobToken[] = [];
  const chars = Array.from(pattern);
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] as string;
    if (char !== '*') tokens.push(char);
    else if (path && chars[index + 1] === '*') {
      tokens.push({ any: 'all' });
      index++;
    } else tokens.push({ any: path ? 'segment' : 'all' });
  }
  return tokens;
}

/**
 * Whether `value` matches a wildcard pattern, following every way through the pattern at once:
 * time grows with the value's length times the pattern's, with no backtracking. (A regular
 * expression like `^.*a.*b$` tries again from each position: a document's operationId of
 * 500,000 characters kept it busy for minutes.)
 */
function globMatches(tokens: readonly GlobToken[], value: string): boolean {
  let active = new Uint8Array(tokens.length + 1);
  let next = new Uint8Array(tokens.length + 1);
  // a wildcard may match nothing: whoever reaches it reaches the token after it too
  const reach = (states: Uint8Array, from: number): void => {
    for (let index = from; index <= tokens.length && states[index] === 0; index++) {
      states[index] = 1;
      if (typeof tokens[index] !== 'object') return;
    }
  };
  reach(active, 0);
  for (const char of value) {
    next.fill(0);
    let any = false;
    for (let index = 0; index < tokens.length; index++) {
      if (active[index] === 0) continue;
      const token = tokens[index] as GlobToken;
      if (typeof token === 'string') {
        if (token === char) {
          reach(next, index + 1);
          any = true;
        }
      } else if (token.any === 'all' || char !== '/') {
        reach(next, index);
        any = true;
      }
    }
    if (!any) return false;
    [active, next] = [next, active];
  }
  return active[tokens.length] === 1;
}

function matcherOf(pattern: string | RegExp, path: boolean): (value: string) => boolean {
  if (pattern instanceof RegExp) return (value) => pattern.test(value);
  const tokens = globTokens(pattern, path);
  return (value) => globMatches(tokens, value);
}

function matchesAny(
  value: string | undefined,
  patterns: readonly (string | RegExp)[],
  path: boolean,
): boolean {
  if (value === undefined) return false;
  return patterns.some((pattern) => matcherOf(pattern, path)(value));
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
