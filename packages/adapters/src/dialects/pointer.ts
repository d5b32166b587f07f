import type { JsonSchema } from '@toolplane/core';

/** Appends one segment to a JSON Pointer. */
export function pointer(base: string, segment: string | number): string {
  return `${base}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Resolves a local `$ref` (`#/$defs/Node`) in a root schema; undefined when it points nowhere. */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | boolean | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node === 'boolean') return node;
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as JsonSchema) : undefined;
}

/** A schema's types as a list (`type: 'string'` -> `['string']`, absent -> `[]`). */
export function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** Whether a schema is an object schema (declares `type: object` or has `properties`). */
export function isObjectSchema(schema: JsonSchema): boolean {
  const types = typesOf(schema);
  if (types.length > 0) return types.length === 1 && types[0] === 'object';
  return typeof schema.properties === 'object' && schema.anyOf === undefined && schema.oneOf === undefined;
}
