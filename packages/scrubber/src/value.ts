import type { ScrubOutcome } from './types.js';

type Scrub = (text: string) => ScrubOutcome;

function scrubEntry(key: string, value: string, scrub: Scrub): string {
  // Scrubbed as a one-member JSON object so the key name gives the value its context.
  const outcome = scrub(JSON.stringify({ [key]: value }));
  if (outcome.findings.length === 0) return value;
  try {
    const parsed = JSON.parse(outcome.text) as Record<string, unknown>;
    const scrubbed = parsed[key];
    if (typeof scrubbed === 'string') return scrubbed;
  } catch {
    // A match spanned the key: fall back to the value alone.
  }
  return scrub(value).text;
}

function walk(value: unknown, scrub: Scrub, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrub(value).text;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, scrub, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const scrubbedKey = scrub(key).text;
    out[scrubbedKey] = typeof item === 'string' ? scrubEntry(key, item, scrub) : walk(item, scrub, seen);
  }
  return out;
}

/**
 * Redacts every string of a JSON value. The value is scrubbed as JSON text in one pass (so key
 * names give values their context) and parsed back; markers contain no quote or backslash, so
 * the result stays valid JSON. If a match ever broke the JSON, each string is scrubbed on its own.
 * Returns the value itself when nothing was found.
 */
export function scrubJsonValue<T>(value: T, scrub: Scrub): T {
  if (typeof value === 'string') return scrub(value).text as T;
  if (value === null || typeof value !== 'object') return value;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json !== undefined) {
    const outcome = scrub(json);
    if (outcome.findings.length === 0) return value;
    try {
      return JSON.parse(outcome.text) as T;
    } catch {
      // fall through to the per-string walk
    }
  }
  return walk(value, scrub, new WeakSet()) as T;
}
