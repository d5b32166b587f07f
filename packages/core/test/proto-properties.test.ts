import { expect, it } from 'vitest';
import { compileSchema } from '../src/schema-validator.js';
import type { JsonSchema } from '../src/spec.js';

// JSON Schemas come from MCP servers and OpenAPI documents as JSON: a property may be named
// `__proto__` (JSON.parse makes it an own key). ajv leaves that name out of `properties`.

function schemaOf(json: string): JsonSchema {
  return JSON.parse(json) as JsonSchema;
}

function verdict(schema: JsonSchema, json: string): string {
  const outcome = compileSchema(schema).validate(JSON.parse(json));
  return outcome.valid
    ? 'valid'
    : outcome.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
}

it('checks a property named __proto__ against its subschema', () => {
  const schema = schemaOf('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
  // ajv alone skips this subschema and calls the value valid
  expect(verdict(schema, '{"__proto__":5}')).toBe('args.__proto__: must be string');
  expect(verdict(schema, '{"__proto__":"x"}')).toBe('valid');
  expect(verdict(schema, '{}')).toBe('valid');
});

it('a declared __proto__ is not an unknown property, and nested ones are checked too', () => {
  const closed = schemaOf(
    '{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}',
  );
  // ajv alone calls a declared __proto__ an unknown property
  expect(verdict(closed, '{"__proto__":"x"}')).toBe('valid');
  expect(verdict(closed, '{"other":1}')).toBe('args: has unknown property "other"');
  const nested = schemaOf(
    '{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"__proto__":{"type":"number"}},"required":["__proto__"]}}}}',
  );
  expect(verdict(nested, '{"list":[{"__proto__":1},{"__proto__":"no"}]}')).toBe(
    'args.list[1].__proto__: must be number',
  );
  expect(verdict(nested, '{"list":[{}]}')).toBe('args.list[0].__proto__: is required');
});

it('keeps a pattern of the schema that already names __proto__, and leaves the given schema as it was', () => {
  const text =
    '{"type":"object","properties":{"__proto__":{"type":"string"}},"patternProperties":{"^__proto__$":{"maxLength":2}}}';
  const schema = schemaOf(text);
  expect(verdict(schema, '{"__proto__":"abc"}')).toBe('args.__proto__: must NOT have more than 2 characters');
  expect(verdict(schema, '{"__proto__":7}')).toBe('args.__proto__: must be string');
  expect(JSON.stringify(schema)).toBe(text);
  expect(compileSchema(schema).schema).toBe(schema);
});
