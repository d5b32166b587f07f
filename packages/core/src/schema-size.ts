/**
 * How many objects and arrays a schema may hold before `compileSchema` refuses it. ajv turns
 * every subschema into code on the caller's thread: about 0.1 ms each, 0.3 ms with a `pattern`
 * (8,000 properties: 0.8-2.6 s), so a server's schema of this size holds the process for about
 * a second at most; a tool schema of a few hundred is common.
 */
export const DEFAULT_MAX_SCHEMA_NODES = 5000;

/**
 * Counts the objects and arrays of a schema (a shared subschema once per place it is used, as ajv
 * compiles it), walking with an explicit stack so depth costs no stack, and stops past `limit`.
 * Returns the count, or `limit + 1` when there are more.
 */
export function countSchemaNodes(schema: unknown, limit: number): number {
  const pending: unknown[] = [schema];
  let count = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    count++;
    if (count > limit) return count;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else {
      for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return count;
}
