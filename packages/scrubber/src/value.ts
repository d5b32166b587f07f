import type { Finding, ScrubOutcome } from './types.js';

type Scrub = (text: string) => ScrubOutcome;

function scrubEntry(key: string, value: string, scrub: Scrub): string {
  // Scrubbed as a one-member JSON object so the key name gives the value its context.
  const outcome = scrub(JSON.stringify({ [key]: value }));
  // A backslash in the value is escaped text (`https:\/\/`, `{\"password\": ...}`) that JSON
  // escapes once more: the value is also scrubbed as it is.
  const escaped = value.includes('\\');
  if (outcome.findings.length === 0) return escaped ? scrub(value).text : value;
  try {
    const parsed = JSON.parse(outcome.text) as Record<string, unknown>;
    const scrubbed = parsed[key];
    if (typeof scrubbed === 'string') return escaped ? scrub(scrubbed).text : scrubbed;
  } catch {
    // A match spanned the key: fall back to the value alone.
  }
  return scrub(value).text;
}

/**
 * Whether a string of `root` that holds a backslash has a finding of its own. JSON.stringify
 * escapes such a string once more (`\/` becomes `\\/`), which can hide from the scrub of the
 * JSON text what the string shows when scrubbed as it is. Reads each object once (cycles too).
 */
function escapedStringHides(root: object, scrub: Scrub): boolean {
  const seen = new Set<object>([root]);
  const stack: object[] = [root];
  while (stack.length > 0) {
    const current = stack.pop() as object;
    for (const [key, item] of Object.entries(current)) {
      if (key.includes('\\') && scrub(key).findings.length > 0) return true;
      if (typeof item === 'string') {
        if (item.includes('\\') && scrub(item).findings.length > 0) return true;
      } else if (item !== null && typeof item === 'object' && !seen.has(item)) {
        seen.add(item);
        stack.push(item);
      }
    }
  }
  return false;
}

/** An object or array being copied by {@link walk}. */
interface Frame {
  readonly source: object;
  readonly target: Record<string, unknown> | unknown[];
  readonly entries: [string, unknown][];
  index: number;
}

function place(frame: Frame, key: string, item: unknown, scrub: Scrub): void {
  if (Array.isArray(frame.target)) {
    frame.target[Number(key)] = item;
    return;
  }
  // Two keys redacted to the same marker keep both entries: `[REDACTED:github_token]`, then `... #2`.
  const scrubbed = scrub(key).text;
  let name = scrubbed;
  for (let n = 2; name !== key && Object.hasOwn(frame.target, name); n++) name = `${scrubbed} #${n}`;
  // defineProperty: a key named `__proto__` stays an own key instead of replacing the prototype.
  Object.defineProperty(frame.target, name, {
    value: item,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Copies `root` with every string scrubbed, with an explicit stack (no recursion: any depth
 * fits). An object met again inside itself becomes `'[Circular]'`; one shared by several
 * parents is copied once and shared the same way, so a DAG costs its size, not its paths.
 */
function walk(root: object, scrub: Scrub): unknown {
  const open = new Set<object>();
  const copies = new Map<object, unknown>();
  const enter = (source: object): Frame => {
    open.add(source);
    const target = Array.isArray(source) ? new Array<unknown>(source.length) : {};
    return { source, target, entries: Object.entries(source), index: 0 };
  };
  const first = enter(root);
  const stack: Frame[] = [first];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const entry = frame.entries[frame.index++];
    if (entry === undefined) {
      stack.pop();
      open.delete(frame.source);
      copies.set(frame.source, frame.target);
      continue;
    }
    const [key, item] = entry;
    if (typeof item === 'string') {
      place(frame, key, Array.isArray(frame.target) ? scrub(item).text : scrubEntry(key, item, scrub), scrub);
    } else if (item === null || typeof item !== 'object') {
      place(frame, key, item, scrub);
    } else if (open.has(item)) {
      place(frame, key, '[Circular]', scrub);
    } else if (copies.has(item)) {
      place(frame, key, copies.get(item), scrub);
    } else {
      const child = enter(item);
      place(frame, key, child.target, scrub);
      stack.push(child);
    }
  }
  return first.target;
}

/**
 * Whether a finding lies in an object key of the JSON text `json`: the string it is in is
 * followed by `:`. Linear: the text after each finding is read once, up to its string's end.
 */
function redactsAKey(json: string, findings: readonly Finding[]): boolean {
  let scanned = 0;
  for (const finding of findings) {
    let cursor = Math.max(finding.end, scanned);
    while (cursor < json.length && json.charCodeAt(cursor) !== 34)
      cursor += json.charCodeAt(cursor) === 92 ? 2 : 1;
    scanned = cursor;
    if (json.charCodeAt(cursor + 1) === 58) return true;
  }
  return false;
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
  // Strings with escaped text of their own are scrubbed one by one (as they are, too).
  if (json?.includes('\\\\') === true && escapedStringHides(value, scrub)) return walk(value, scrub) as T;
  if (json !== undefined) {
    const outcome = scrub(json);
    if (outcome.findings.length === 0) return value;
    // A redacted key could collide with another: the walk keeps both entries.
    if (redactsAKey(json, outcome.findings)) return walk(value, scrub) as T;
    try {
      return JSON.parse(outcome.text) as T;
    } catch {
      // fall through to the per-string walk
    }
  }
  return walk(value, scrub) as T;
}
