import { compileSchema, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { createOpenApiProvider, importOpenApi } from '../../src/index.js';
import { getTool, minimal, rejection, thrown } from '../helpers/bad-input.js';
import { objectSchema, useCleanups } from '../helpers/fixtures.js';

const { provider, defer } = useCleanups();

/** Parameter schemas that are no JSON Schema, and what the warning should say about each. */
const BROKEN: Record<string, [unknown, string]> = {
  badType: [{ type: 'strin' }, 'type must be equal to one of the allowed values'],
  minimumText: [{ type: 'integer', minimum: 'x' }, 'minimum must be number'],
  requiredText: [{ type: 'object', required: 'yes' }, 'required must be array'],
  enumText: [{ enum: 'x' }, 'enum must be array'],
  multipleOfZero: [{ type: 'number', multipleOf: 0 }, 'multipleOf must be > 0'],
  allOfObject: [{ allOf: { type: 'string' } }, 'allOf must be array'],
  typeList: [{ type: ['string', 'bogus'] }, 'must be equal to one of the allowed values'],
};

function brokenDocument() {
  const paths: Record<string, unknown> = {
    '/fine': {
      get: { operationId: 'fine', parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }] },
    },
  };
  for (const [name, [schema]] of Object.entries(BROKEN))
    paths[`/${name}`] = { get: { operationId: name, parameters: [{ name: 'p', in: 'query', schema }] } };
  return minimal(paths);
}

describe('parameter schemas that are no JSON Schema', () => {
  it('skips their operations at import with a warning naming the operation and the problem', async () => {
    const { tools, warnings } = await importOpenApi({ document: brokenDocument() }, { namespace: 'schemas' });
    // imported, they would be listed to the model and fail every call with CONFIG_INVALID
    expect(Object.keys(tools)).toEqual(['fine']);
    const text = warnings.join('\n');
    for (const [name, [, problem]] of Object.entries(BROKEN)) {
      const line = warnings.find((warning) => warning.startsWith(`skipped GET /${name}:`));
      expect(line, name).toBeDefined();
      expect(line).toContain('not a valid JSON Schema');
      expect(line).toContain(problem);
    }
    expect(text).not.toContain('/fine');
    for (const tool of Object.values(tools)) expect(() => compileSchema(tool.parametersSchema)).not.toThrow();
  });

  it('stops a strict import naming the operation', async () => {
    const error = await rejection(
      importOpenApi({ document: brokenDocument() }, { namespace: 'schemas', strict: true }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('GET /badType');
    expect(error.message).toContain('not a valid JSON Schema');
  });

  it('warns through an OpenAPI provider and lists only the tools that can be called', async () => {
    const openapi = createOpenApiProvider({ document: brokenDocument() }, { namespace: 'schemas', env: {} });
    defer(() => openapi.close());
    await openapi.start?.(AbortSignal.timeout(30_000));
    expect(openapi.listTools().map((spec) => spec.name)).toEqual(['fine']);
    expect(openapi.warnings().join('\n')).toContain('skipped GET /badType');
    const call = await openapi.execute('badType', { p: 'x' }, createToolContext());
    expect(call.ok === false && call.error.code).toBe('TOOL_NOT_FOUND');
  });

  it('refuses a hand-written tool with such a schema, or a pattern that is no regular expression, when created', () => {
    for (const [label, properties] of [
      ['type', { q: { type: 'strin' } }],
      ['pattern', { q: { type: 'string', pattern: '(unclosed' } }],
      ['required', { q: { type: 'object', required: 'q' } }],
    ] as const) {
      const error = thrown(() =>
        provider({
          broken: getTool('https://api.example.test/a', { parametersSchema: objectSchema(properties) }),
        }),
      );
      expect(error.code, label).toBe('CONFIG_INVALID');
      expect(error.message, label).toContain(
        'REST tool "broken": parametersSchema is not a valid JSON Schema',
      );
    }
    // a 2020-12 schema is judged by its own dialect
    const modern = provider({
      ok: getTool('https://api.example.test/a', {
        parametersSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } },
        },
      }),
    });
    expect(modern.toolNames).toEqual(['ok']);
  });
});

describe('patterns in data', () => {
  it('keeps a schema whose default or enum holds an object with a "pattern" member', () => {
    const data = { pattern: '(' };
    const rest = provider({
      ok: getTool('https://api.example.test/a', {
        parametersSchema: objectSchema({
          filter: { type: 'object', default: data, enum: [data], examples: [data] },
        }),
      }),
    });
    expect(rest.toolNames).toEqual(['ok']);
  });
});
