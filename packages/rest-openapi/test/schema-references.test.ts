import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { failure, getTool, thrown } from './helpers/bad-input.js';
import { objectSchema, useCleanups } from './helpers/fixtures.js';

const { provider, server } = useCleanups();

/** Schemas that pass the meta-schema but do not compile, and what the message should say. */
const UNCOMPILABLE: Record<string, [Record<string, unknown>, string]> = {
  dangling: [
    objectSchema({ q: { $ref: '#/definitions/missing' } }),
    "can't resolve reference #/definitions/missing",
  ],
  otherDocument: [
    objectSchema({ q: { $ref: 'https://schemas.example.test/q.json' } }),
    "can't resolve reference https://schemas.example.test/q.json",
  ],
  anchor: [
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { q: { $ref: '#nowhere' } },
    },
    "can't resolve reference #nowhere",
  ],
  sameIdTwice: [
    objectSchema({
      a: { $id: 'https://schemas.example.test/x', type: 'string' },
      b: { $id: 'https://schemas.example.test/x', type: 'integer' },
    }),
    'resolves to more than one schema',
  ],
};

describe('argument schemas that pass the meta-schema but do not compile', () => {
  it('refuse the tool when the provider is created, naming it and the reference', () => {
    for (const [label, [parametersSchema, problem]] of Object.entries(UNCOMPILABLE)) {
      // accepted, they would be listed and fail every call with "schema does not compile"
      const error = thrown(() =>
        provider({ broken: getTool('https://api.example.test/a', { parametersSchema }) }),
      );
      expect(error.code, label).toBe('CONFIG_INVALID');
      expect(error.message, label).toContain(
        'REST tool "broken": parametersSchema is not a valid JSON Schema',
      );
      expect(error.message, label).toContain(problem);
    }
  });

  it('keep schemas whose references resolve, and their calls validate through them', async () => {
    const api = await server();
    const tree = {
      type: 'object',
      definitions: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { $ref: '#/definitions/node' } },
        },
      },
      properties: { root: { $ref: '#/definitions/node' } },
      additionalProperties: false,
    };
    const rest = provider({ tree: getTool(`${api.origin}/tree`, { parametersSchema: tree }) });
    expect(
      (await rest.execute('tree', { root: { name: 'a', child: { name: 'b' } } }, createToolContext())).ok,
    ).toBe(true);
    const refused = failure(
      await rest.execute('tree', { root: { child: { name: 5 } } }, createToolContext()),
    );
    expect(refused.error.code).toBe('INVALID_ARGUMENTS');
    expect(api.requests).toHaveLength(1);
  });
});
