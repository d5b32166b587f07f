import { compileSchema } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createRefResolver } from '../../src/openapi/resolver.js';
import { SchemaConverter } from '../../src/openapi/schema.js';

function convert(schema: unknown, dialect: '2.0' | '3.0' | '3.1', components: Record<string, unknown> = {}) {
  const converter = new SchemaConverter(
    createRefResolver({ components: { schemas: components } }),
    dialect,
    300,
  );
  const { schema: out, needs } = converter.convert(schema);
  return { out, definitions: converter.definitionsFor(needs) };
}

describe('SchemaConverter', () => {
  it('turns 3.0 nullable, boolean exclusive bounds and example into draft-07', () => {
    const { out } = convert(
      {
        type: 'integer',
        nullable: true,
        minimum: 0,
        exclusiveMinimum: true,
        maximum: 10,
        exclusiveMaximum: false,
        example: 3,
      },
      '3.0',
    );
    expect(out).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 0, maximum: 10, examples: [3] });
    expect(convert({ type: 'string', enum: ['a', 'b', 'a'], nullable: true }, '3.0').out).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    expect(convert({ allOf: [{ type: 'string' }], nullable: true, description: 'd' }, '3.0').out).toEqual({
      description: 'd',
      anyOf: [{ allOf: [{ type: 'string' }] }, { type: 'null' }],
    });
  });

  it('keeps 3.1 numeric bounds and type arrays, turns prefixItems into tuple items, and drops read-only properties', () => {
    const { out } = convert(
      {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: ['string', 'null'], exclusiveMinimum: 1 },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        },
        dependentRequired: { name: ['pair'] },
        $defs: { unused: { type: 'string' } },
      },
      '3.1',
    );
    expect(out).toEqual({
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: ['string', 'null'], exclusiveMinimum: 1 },
        pair: {
          type: 'array',
          items: [{ type: 'string' }, { type: 'number' }],
          additionalItems: { not: {} },
        },
      },
      dependencies: { name: ['pair'] },
    });
    expect(compileSchema(out).validate({ name: 'x', pair: ['a', 1, 'extra'] }).valid).toBe(false);
  });

  it('inlines plain references, keeps recursive ones as definitions, and treats 3.1 $ref siblings as allOf', () => {
    const components = {
      Leaf: { type: 'string', minLength: 1 },
      Node: {
        type: 'object',
        properties: {
          value: { $ref: '#/components/schemas/Leaf' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
    };
    const { out, definitions } = convert({ $ref: '#/components/schemas/Node' }, '3.0', components);
    expect(out).toEqual({ $ref: '#/definitions/Node' });
    expect(definitions?.Node).toMatchObject({ properties: { value: { type: 'string', minLength: 1 } } });
    const compiled = compileSchema({ type: 'object', properties: { tree: out }, definitions });
    expect(compiled.validate({ tree: { value: 'a', children: [{ value: 'b', children: [] }] } }).valid).toBe(
      true,
    );
    expect(compiled.validate({ tree: { value: 'a', children: [{ value: '' }] } }).valid).toBe(false);
    const sibling = convert({ $ref: '#/components/schemas/Leaf', maxLength: 3 }, '3.1', components).out;
    expect(sibling).toEqual({ allOf: [{ type: 'string', minLength: 1 }, { maxLength: 3 }] });
  });

  it('turns Swagger 2.0 file and x-nullable into JSON Schema', () => {
    expect(convert({ type: 'file' }, '2.0').out).toEqual({ type: 'string', format: 'binary' });
    expect(convert({ type: 'string', 'x-nullable': true }, '2.0').out).toEqual({ type: ['string', 'null'] });
  });
});
