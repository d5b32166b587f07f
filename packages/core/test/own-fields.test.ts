import { expect, it } from 'vitest';
import { z } from 'zod';
import { createToolContext } from '../src/context.js';
import type { ToolResult } from '../src/result.js';
import { defineTool } from '../src/tool.js';

// A model's arguments come from JSON.parse: plain objects whose prototype has `constructor`,
// `toString`, `valueOf`... zod's z.object reads `input[key]`, so every object it reads must be
// given by its own fields only, at any depth.

/** A tool that answers with what it received: the arguments as JSON and the prototypes it saw. */
function echoing(input: z.ZodType) {
  return defineTool({
    name: 'echo',
    description: 'Answers with its arguments.',
    sideEffect: 'none',
    input,
    execute: (args) => {
      const nested = (args as { opts?: unknown }).opts;
      const plain =
        typeof nested === 'object' && nested !== null
          ? Object.getPrototypeOf(nested) === Object.prototype
          : null;
      return { ok: true, content: [{ type: 'text', text: JSON.stringify(args) }], structured: { plain } };
    },
  });
}

async function run(input: z.ZodType, json: string): Promise<ToolResult> {
  return echoing(input).execute(JSON.parse(json) as Record<string, unknown>, createToolContext());
}

function textOf(result: ToolResult): string {
  if (!result.ok) return `${result.error.code}: ${result.error.message}`;
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

const named = z.object({
  constructor: z.string().optional(),
  toString: z.string().optional(),
  valueOf: z.number().optional(),
});

it('a nested object without fields named like Object.prototype members is accepted', async () => {
  // read from the prototype, {} would fail with "args.opts.constructor: expected string, received function"
  const result = await run(z.object({ opts: named }), '{"opts":{}}');
  expect(textOf(result)).toBe('{"opts":{}}');
  // the tool still gets plain objects
  expect(result.ok && result.structured).toEqual({ plain: true });
});

it('such fields are read from the object itself in arrays, records, tuples, unions and lazy trees', async () => {
  const cases: Array<[z.ZodType, string]> = [
    [z.object({ list: z.array(named) }), '{"list":[{},{"toString":"x"}]}'],
    [z.object({ map: z.record(z.string(), named) }), '{"map":{"a":{}}}'],
    [z.object({ pair: z.tuple([named, named]) }), '{"pair":[{},{}]}'],
    [z.object({ opts: named.optional().nullable() }), '{"opts":{}}'],
    [z.object({ opts: named.readonly() }), '{"opts":{}}'],
    [
      z.object({
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('a'), constructor: z.string().optional() }),
          z.object({ kind: z.literal('b'), inner: named }),
        ]),
      }),
      '{"shape":{"kind":"b","inner":{}}}',
    ],
    [
      z.object({ both: z.intersection(named, z.object({ other: named.optional() })) }),
      '{"both":{"other":{}}}',
    ],
  ];
  for (const [input, json] of cases) expect(textOf(await run(input, json))).toBe(json);
  interface Tree {
    readonly toString?: string;
    readonly children: Tree[];
  }
  const tree: z.ZodType<Tree> = z.lazy(() =>
    z.object({ toString: z.string().optional(), children: z.array(tree) }),
  );
  const deep = '{"tree":{"children":[{"children":[{"children":[]}]}]}}';
  expect(textOf(await run(z.object({ tree }), deep))).toBe(deep);
});

it('a required nested field named constructor is not satisfied by the prototype', async () => {
  // read from the prototype, the field would be `constructor: Object` (a function)
  const result = await run(z.object({ opts: z.object({ constructor: z.unknown() }) }), '{"opts":{}}');
  expect(result.ok).toBe(false);
  expect(textOf(result)).toContain('args.opts.constructor');
  const given = await run(
    z.object({ opts: z.object({ constructor: z.unknown() }) }),
    '{"opts":{"constructor":1}}',
  );
  expect(textOf(given)).toBe('{"opts":{"constructor":1}}');
});

it('values under z.any(), z.unknown() and passthrough keys reach the tool as given', async () => {
  const result = await run(
    z.object({ opts: z.any(), rest: z.object({}).passthrough() }),
    '{"opts":{"k":{"constructor":1}},"rest":{"extra":{"a":1}}}',
  );
  expect(textOf(result)).toBe('{"opts":{"k":{"constructor":1}},"rest":{"extra":{"a":1}}}');
  // not a copy without a prototype: a tool may call its methods
  expect(result.ok && result.structured).toEqual({ plain: true });
});
