import type { ToolSpec } from '@toolplane/core';

/** A tool whose schema uses what the strict dialects refuse: optional fields, $ref recursion, free-form maps, type lists. */
export const FILE_TOOL: ToolSpec = {
  name: 'fs__write',
  description: 'Writes a tree of files.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, format: 'uri-reference' },
      mode: { enum: [420, 493, 'keep'] },
      tree: { $ref: '#/$defs/node' },
      env: { type: 'object', additionalProperties: { type: 'string' } },
      tag: { type: ['string', 'null'] },
      size: { type: ['integer', 'string'] },
      kind: { const: 1 },
    },
    required: ['path'],
    $defs: {
      node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
        required: ['name'],
      },
    },
  },
};

/** Collects every key used anywhere in a schema. */
export function keywordsIn(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywordsIn(item, out);
  else if (typeof schema === 'object' && schema !== null)
    for (const [key, value] of Object.entries(schema)) {
      out.add(key);
      if (key === 'properties' && typeof value === 'object' && value !== null)
        for (const child of Object.values(value)) keywordsIn(child, out);
      else keywordsIn(value, out);
    }
  return out;
}
