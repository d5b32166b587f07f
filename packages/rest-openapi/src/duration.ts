import { ToolError } from '@toolplane/core';
import type { Duration } from './config.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of a duration: a number of ms or a string like `"250ms"`, `"30s"`, `"5m"`, `"1h"`.
 * Throws `CONFIG_INVALID` for anything else.
 *
 * @example
 * parseDuration('1.5s'); // 1500
 */
export function parseDuration(value: Duration, field = 'duration'): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value;
  } else {
    // trimmed first: two runs of spaces around an optional unit backtrack quadratically
    const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
    const ms = match ? Math.round(Number(match[1]) * (UNITS[match[2] ?? 'ms'] ?? 1)) : Number.NaN;
    if (Number.isFinite(ms)) return ms;
  }
  throw new ToolError(
    'CONFIG_INVALID',
    `${field} must be a non-negative number of milliseconds or a string like "30s" or "5m", got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  );
}
