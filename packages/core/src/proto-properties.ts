import type { JsonSchema } from './spec.js';

/** Keywords whose value is a map of names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one subschema (or, for `items`, an array of them). */
const SCHEMA_ONE = [
  'additionalProperties',
  'additionalItems',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** The pattern that names exactly the property `__proto__`. */
const PROTO_PATTERN = '^__proto__$';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function define(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Whether some object of the schema has a `properties` map with an own `__proto__` key. Walked
 * with a stack of its own (a schema may nest deeper than the call stack); it may also find such
 * a map inside data (`const`, `default`), which only costs a rewrite that changes nothing there.
 */
function namesProto(schema: JsonSchema): boolean {
  const stack: unknown[] = [schema];
  for (let node = stack.pop(); node !== undefined || stack.length > 0; node = stack.pop()) {
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const properties = (node as Node).properties;
    if (isNode(properties) && Object.hasOwn(properties, '__proto__')) return true;
    for (const key of Object.keys(node)) stack.push((node as Node)[key]);
  }
  return false;
}

function rewriteNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteNode);
  if (!isNode(node)) return node;
  // a spread defines each key: an own `__proto__` stays a key
  const copy: Node = { ...node };
  for (const keyword of SCHEMA_MAPS) {
    const map = copy[keyword];
    if (!isNode(map)) continue;
    const rewritten: Node = {};
    for (const name of Object.keys(map)) define(rewritten, name, rewriteNode(map[name]));
    copy[keyword] = rewritten;
  }
  for (const keyword of [...SCHEMA_ONE, ...SCHEMA_LISTS]) {
    if (keyword in copy) copy[keyword] = rewriteNode(copy[keyword]);
  }
  const dependencies = copy.dependencies;
  if (isNode(dependencies)) {
    const rewritten: Node = {};
    for (const name of Object.keys(dependencies)) define(rewritten, name, rewriteNode(dependencies[name]));
    copy.dependencies = rewritten;
  }
  const properties = copy.properties;
  if (isNode(properties) && Object.hasOwn(properties, '__proto__')) {
    // read as the own key it is (`.__proto__` reads the same here, but names the accessor)
    const own: unknown = Object.getOwnPropertyDescriptor(properties, '__proto__')?.value;
    const patterns: Node = isNode(copy.patternProperties) ? { ...copy.patternProperties } : {};
    const before = Object.hasOwn(patterns, PROTO_PATTERN) ? patterns[PROTO_PATTERN] : undefined;
    define(patterns, PROTO_PATTERN, before === undefined ? own : { allOf: [before, own] });
    copy.patternProperties = patterns;
  }
  return copy;
}

/**
 * The schema to compile: ajv leaves out a property named `__proto__` from `properties` (it
 * filters that name), so on its own ajv never checks its subschema (`{"__proto__": 5}` passes
 * `type: "string"`) and `additionalProperties: false` refuses it as unknown. Such a property is
 * also given as `patternProperties` `^__proto__$`, which ajv checks on the value's own key. The
 * caller's schema is not changed; a schema without one is returned as it is.
 */
export function checkableProto(schema: JsonSchema): JsonSchema {
  if (!namesProto(schema)) return schema;
  return rewriteNode(schema) as JsonSchema;
}
