import {
  CallToolRequestSchema,
  CallToolResultSchema,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { isPlainCallResult, isPlainToolsCall } from '../src/gateway/call-shapes.js';
import { toCallToolResult } from '../src/gateway/to-mcp.js';

// The gateway's tools/call fast path takes a message only when its hand check proves the SDK's
// schemas accept it and give it back unchanged; everything else goes through the schemas. Here
// the checks and the schemas judge the same values: a hand-written set (whose verdicts are
// pinned, so the fast path cannot quietly stop applying to ordinary calls) and every one-field
// change of a plain message to an odd value (so the check cannot drift from the schemas).

type Value = Record<string, unknown>;
const json = (text: string): Value => JSON.parse(text) as Value;
const call = (params: unknown, extra: Value = {}): Value => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params,
  ...extra,
});

/** Values put in place of one field: each breaks some schema, or is kept, or is rebuilt. */
const ODD_VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  0,
  -3,
  1.5,
  2 ** 53,
  Number.NaN,
  '',
  'text',
  [],
  ['a'],
  {},
  { nested: 1 },
  json('{"__proto__":{"polluted":true}}'),
  new Date(0),
  Object.create(null),
];

/** Every value `base` becomes when one field at any depth is replaced by an odd value or removed. */
function mutations(base: unknown, depth = 0): unknown[] {
  if (typeof base !== 'object' || base === null || depth > 3) return [];
  const out: unknown[] = [];
  const fields = base as Value;
  for (const key of Object.keys(fields)) {
    const { [key]: _removed, ...rest } = fields;
    out.push(rest);
    for (const odd of ODD_VALUES) out.push({ ...fields, [key]: odd });
    for (const inner of mutations(fields[key], depth + 1)) out.push({ ...fields, [key]: inner });
  }
  for (const key of ['extra', '__proto__', 'task', '_meta']) {
    // spread keeps a parsed "__proto__" key as an own key, as JSON.parse made it
    if (!Object.hasOwn(fields, key)) out.push({ ...fields, ...json(`{"${key}":{}}`) });
  }
  return out;
}

/** Whether the schema accepts `value` and gives back an equal value (key order aside: JSON has none). */
function keptBy(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success && equal(parsed.data, value);
}

/** Deep equality of JSON-like values, prototypes included (a rebuilt "__proto__" key shows). */
function equal(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && equal((a as Value)[key], (b as Value)[key]));
}

const requestCases: readonly [string, unknown, boolean][] = [
  ['a call with arguments', call({ name: 'echo', arguments: { message: 'hi' } }), true],
  ['a call without arguments', call({ name: 'echo' }), true],
  ['a string id', { ...call({ name: 'echo', arguments: {} }), id: 'abc' }, true],
  ['id 0', { ...call({ name: 'echo', arguments: {} }), id: 0 }, true],
  ['a progress token', call({ name: 'e', arguments: {}, _meta: { progressToken: 'p1' } }), true],
  ['a number progress token', call({ name: 'e', _meta: { progressToken: 3 } }), true],
  ['nested argument values', call({ name: 'e', arguments: { a: [1, { b: null }], c: 'x' } }), true],
  [
    'parsed from JSON text',
    json('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e"}}'),
    true,
  ],
  ['a "__proto__" argument', call({ name: 'e', arguments: json('{"__proto__":{"x":1}}') }), false],
  ['a "__proto__" key in params', call(json('{"name":"e","__proto__":{}}')), false],
  ['task augmentation', call({ name: 'e', task: { ttl: 1000 } }), false],
  [
    'a related task',
    call({ name: 'e', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }),
    false,
  ],
  ['another _meta key', call({ name: 'e', _meta: { progressToken: 1, trace: 'x' } }), false],
  ['another params key', call({ name: 'e', cursor: 'x' }), false],
  ['an extra top-level key', call({ name: 'e' }, { extra: 1 }), false],
  ['a fractional id', { ...call({ name: 'e' }), id: 1.5 }, false],
  ['an id past 2^53', { ...call({ name: 'e' }), id: 2 ** 53 }, false],
  ['no id (a notification)', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'e' } }, false],
  ['another method', { ...call({ name: 'e' }), method: 'tools/list' }, false],
  ['jsonrpc "1.0"', { ...call({ name: 'e' }), jsonrpc: '1.0' }, false],
  ['a number as name', call({ name: 5 }), false],
  ['arguments as an array', call({ name: 'e', arguments: [1] }), false],
  ['arguments null', call({ name: 'e', arguments: null }), false],
  ['arguments that are a Date', call({ name: 'e', arguments: new Date(0) }), false],
  ['no params', { jsonrpc: '2.0', id: 1, method: 'tools/call' }, false],
];

describe('isPlainToolsCall against the SDK schemas', () => {
  it.each(requestCases)('judges %s as pinned', (_label, message, plain) => {
    expect(isPlainToolsCall(message)).toBe(plain);
  });

  it('accepts only what JSONRPCMessageSchema and CallToolRequestSchema keep unchanged', () => {
    const bases = requestCases.filter(([, , plain]) => plain).map(([, message]) => message);
    const values = [
      ...requestCases.map(([, message]) => message),
      ...bases.flatMap((base) => mutations(base)),
    ];
    expect(values.length).toBeGreaterThan(1000);
    let accepted = 0;
    for (const value of values) {
      if (!isPlainToolsCall(value)) continue;
      accepted++;
      expect(keptBy(JSONRPCMessageSchema, value), JSON.stringify(value)).toBe(true);
      // the handler reads what this schema gives (it drops `jsonrpc` and `id`)
      const { method, params } = value as Value;
      expect(keptBy(CallToolRequestSchema, { method, params }), JSON.stringify(value)).toBe(true);
    }
    // the mutations include plain messages too (another name, other arguments)
    expect(accepted).toBeGreaterThan(bases.length);
  });
});

const text = (value: string): Value => ({ type: 'text', text: value });
const resultCases: readonly [string, unknown, boolean][] = [
  ['text content', { content: [text('hi')] }, true],
  ['no blocks', { content: [] }, true],
  ['structured content', { content: [text('{}')], structuredContent: { a: 1 } }, true],
  ['an error', { content: [text('DENIED: no')], isError: true }, true],
  ['the gateway _meta', { content: [], _meta: { 'toolplane/meta': { callId: 'c', cached: false } } }, true],
  [
    'a gateway success',
    toCallToolResult({
      ok: true,
      content: [{ type: 'text', text: 'hi' }],
      structured: { x: 1 },
      meta: { latencyMs: 1, cached: false, callId: 'c' },
    } as never),
    true,
  ],
  [
    'a gateway failure',
    toCallToolResult({ ok: false, error: { code: 'DENIED', message: 'no' } } as never),
    true,
  ],
  ['no content (the schema adds it)', { structuredContent: { a: 1 } }, false],
  ['an image block', { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, false],
  ['annotations', { content: [{ ...text('x'), annotations: { priority: 2 } }] }, false],
  ['an unknown block key', { content: [{ ...text('x'), extra: 1 }] }, false],
  ['a block without text', { content: [{ type: 'text' }] }, false],
  ['structured content as an array', { content: [], structuredContent: [1] }, false],
  ['isError as a string', { content: [], isError: 'yes' }, false],
  ['a progress token in _meta', { content: [], _meta: { progressToken: {} } }, false],
  ['an unknown result key', { content: [], extra: 1 }, false],
  ['a "__proto__" structured key', { content: [], structuredContent: json('{"__proto__":{}}') }, false],
];

describe('isPlainCallResult against the SDK schema', () => {
  it.each(resultCases)('judges %s as pinned', (_label, result, plain) => {
    expect(isPlainCallResult(result)).toBe(plain);
  });

  it('accepts only what CallToolResultSchema keeps unchanged', () => {
    const bases = resultCases.filter(([, , plain]) => plain).map(([, result]) => result);
    const values = [...resultCases.map(([, result]) => result), ...bases.flatMap((base) => mutations(base))];
    expect(values.length).toBeGreaterThan(500);
    let accepted = 0;
    for (const value of values) {
      if (!isPlainCallResult(value)) continue;
      accepted++;
      expect(keptBy(CallToolResultSchema, value), JSON.stringify(value)).toBe(true);
    }
    expect(accepted).toBeGreaterThan(bases.length);
  });
});
