/**
 * Whether a JSON Schema names a property `__proto__` (in `properties` or `required`). JSON text
 * can, and a server's tool may take such an argument, but ajv (core's validator) cannot check
 * one: it reads `properties.__proto__` as the prototype, so `additionalProperties: false`
 * refused the property the schema allows and every correct call failed. Walked without
 * recursion (a definition nests at most `MAX_DEFINITION_DEPTH` levels here anyway).
 */
export function namesProtoProperty(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) pending.push(item);
      continue;
    }
    const fields = node as Record<string, unknown>;
    const properties = Object.hasOwn(fields, 'properties') ? fields.properties : undefined;
    if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, '__proto__'))
      return true;
    const required = Object.hasOwn(fields, 'required') ? fields.required : undefined;
    if (Array.isArray(required) && required.includes('__proto__')) return true;
    for (const value of Object.values(fields)) pending.push(value);
  }
  return false;
}

/** What is reported of such a schema (the tool is then called without checking it here). */
export const PROTO_PROPERTY_UNCHECKED =
  'the schema names a property "__proto__", which the JSON Schema validator cannot check (it reads it as the prototype and refuses the property): checked by the server only';
