import { ToolError } from '@toolplane/core';
import type { Duration } from './config.js';
import { parseDuration } from './duration.js';

/** Longest delay a Node timer keeps (about 24.8 days); longer ones fire after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Milliseconds of a timeout: a {@link Duration} from 1 ms to {@link MAX_TIMER_MS}. Throws
 * `CONFIG_INVALID` otherwise (0 would time out every call at once, a longer one would make Node
 * fire the timer after 1 ms).
 */
export function timeoutMillis(value: Duration, field: string): number {
  const ms = parseDuration(value, field);
  if (ms < 1 || ms > MAX_TIMER_MS) {
    throw new ToolError(
      'CONFIG_INVALID',
      `${field} must be between 1 ms and ${MAX_TIMER_MS} ms (about 24 days), got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/** Checks a count option (bytes, redirects, sockets, milliseconds): a whole number from `min` to `max`. */
export function countOption(value: unknown, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw new ToolError(
      'CONFIG_INVALID',
      `${field} must be a whole number from ${min} to ${max}, got ${shown}`,
    );
  }
  return value;
}

/** Deepest nesting of arrays and objects accepted in schemas and body templates. */
export const MAX_NESTING = 256;

/**
 * True when a JSON-like value nests arrays/objects deeper than `limit`, or refers to itself.
 * Iterative, so a hostile value cannot overflow the stack here; shared sub-objects (the importer
 * inlines one schema in many places) are measured once.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const heights = new Map<object, number>();
  // the objects from the root down to the one being measured
  const path = new Set<object>();
  const stack: object[] = typeof value === 'object' && value !== null ? [value] : [];
  while (stack.length > 0) {
    const current = stack[stack.length - 1] as object;
    if (heights.has(current)) {
      stack.pop();
      continue;
    }
    if (!path.has(current)) {
      path.add(current);
      if (path.size > limit) return true;
      for (const member of Object.values(current)) {
        if (typeof member !== 'object' || member === null) continue;
        if (path.has(member)) return true; // a cycle
        const known = heights.get(member);
        if (known === undefined) stack.push(member);
        else if (path.size + known > limit) return true;
      }
      continue;
    }
    stack.pop();
    path.delete(current);
    let height = 1;
    for (const member of Object.values(current)) {
      const below = typeof member === 'object' && member !== null ? (heights.get(member) ?? 0) : 0;
      if (below + 1 > height) height = below + 1;
    }
    heights.set(current, height);
  }
  return false;
}
