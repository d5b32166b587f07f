/**
 * How deep a value from a server nests. JSON text can nest thousands of levels, and every
 * recursive walk after the parse (a hash, ajv, zod, `JSON.stringify`, a deep equal) overflows
 * the stack on it: such values are refused where they arrive, with a message that names them.
 */

/** Whether `value` nests objects or arrays deeper than `limit` (walked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<readonly [unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
