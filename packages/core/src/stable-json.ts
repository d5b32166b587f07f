/** An array or object being written: its members still to come. */
interface Open {
  readonly value: object;
  /** The sorted keys of an object; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  next: number;
  empty: boolean;
  /** Members written since the last nested one (one string: fewer, longer concatenations). */
  written: string;
}

/**
 * Writes an array's next items up to the next array or object, which it returns (its separator
 * written); undefined when the array is done.
 */
function nextItem(top: Open): object | undefined {
  const list = top.value as readonly unknown[];
  const parts: string[] = [];
  while (top.next < list.length) {
    const member = list[top.next++];
    if (!top.empty) parts.push(',');
    top.empty = false;
    if (member !== null && typeof member === 'object') {
      top.written += parts.join('');
      return member;
    }
    parts.push(scalar(member));
  }
  top.written += parts.join('');
  return undefined;
}

/** The same for an object's fields, in key order (`undefined` fields left out). */
function nextField(top: Open): object | undefined {
  const keys = top.keys as readonly string[];
  const record = top.value as Record<string, unknown>;
  const parts: string[] = [];
  while (top.next < keys.length) {
    const key = keys[top.next++] as string;
    const member = record[key];
    if (member === undefined) continue;
    parts.push(`${top.empty ? '' : ','}${JSON.stringify(key)}:`);
    top.empty = false;
    if (member !== null && typeof member === 'object') {
      top.written += parts.join('');
      return member;
    }
    parts.push(scalar(member));
  }
  top.written += parts.join('');
  return undefined;
}

function scalar(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = JSON.stringify(value);
  return text === undefined ? 'null' : text;
}

/**
 * JSON with object keys sorted at every level, so equal values always give equal strings
 * (cache keys, definition hashes). `undefined` members are dropped as JSON does; an array's
 * `undefined`, function or hole is `null`. Walks with a stack of its own, so values nested as
 * deep as `JSON.parse` makes them (100,000 levels and more) are written, not a `RangeError`; a
 * value that refers back to itself throws a `TypeError`, as `JSON.stringify` does.
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  const path = new Set<object>();
  const stack: Open[] = [];
  let out = '';
  const open = (member: object): void => {
    if (path.has(member)) {
      throw new TypeError(
        'stableStringify: the value refers back to itself (a cycle), which JSON cannot carry',
      );
    }
    path.add(member);
    const keys = Array.isArray(member) ? undefined : Object.keys(member).sort();
    out += keys ? '{' : '[';
    stack.push({ value: member, keys, next: 0, empty: true, written: '' });
  };
  open(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Open;
    const nested = top.keys === undefined ? nextItem(top) : nextField(top);
    if (nested === undefined) {
      out += top.written + (top.keys === undefined ? ']' : '}');
      path.delete(top.value);
      stack.pop();
      continue;
    }
    out += top.written;
    top.written = '';
    open(nested);
  }
  return out;
}
