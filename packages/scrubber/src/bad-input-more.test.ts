import {
  type RegisteredTool,
  type ToolContext,
  ToolError,
  type ToolResult,
  createToolContext,
  ok,
} from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { scrubberMiddleware } from './middleware.js';
import { DEFAULT_RULES } from './rules/index.js';
import { createScrubber } from './scrubber.js';
import { ALPHABETS, createFakeSource } from './testing/fake.js';
import type { SecretRule } from './types.js';

const fake = createFakeSource();
const githubToken = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
const password = `${fake.chars(ALPHABETS.alnum, 14)}7`;

function errorOf(fn: () => unknown): { code: string; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    if (ToolError.isInstance(error)) return { code: error.code, message: error.message };
    return { code: `not a ToolError: ${String(error)}`, message: '' };
  }
  return undefined;
}

describe('malformed options (plain-JS callers)', () => {
  it('refuses a single string as `secrets` instead of holding its characters (nothing redacted)', () => {
    const held = fake.chars(ALPHABETS.alnum, 30);
    const error = errorOf(() => createScrubber({ secrets: held as unknown as string[] }));
    expect(error?.code).toBe('CONFIG_INVALID');
    expect(error?.message).toContain('[value]');
    expect(error?.message).not.toContain(held);
    expect(errorOf(() => createScrubber({ secrets: 42 as unknown as string[] }))?.code).toBe(
      'CONFIG_INVALID',
    );
    // A Set and a generator are fine.
    const fromSet = createScrubber({ secrets: new Set([held]) });
    expect(fromSet.scrubText(`v ${held}`)).toBe('v [REDACTED:secret]');
  });

  it('refuses a disabledRules id no rule has (a typo would silently keep the rule on)', () => {
    const error = errorOf(() => createScrubber({ disabledRules: ['assignments'] }));
    expect(error?.code).toBe('CONFIG_INVALID');
    expect(error?.message).toContain('"assignments"');
    expect(error?.message).toContain('assignment');
    expect(errorOf(() => createScrubber({ disabledRules: 'assignment' as unknown as string[] }))?.code).toBe(
      'CONFIG_INVALID',
    );
  });

  it('refuses rules, marker and options of the wrong type at creation, not at the first scrub', () => {
    expect(errorOf(() => createScrubber({ rules: 'all' as unknown as SecretRule[] }))?.code).toBe(
      'CONFIG_INVALID',
    );
    expect(errorOf(() => createScrubber({ rules: [null as unknown as SecretRule] }))?.code).toBe(
      'CONFIG_INVALID',
    );
    expect(errorOf(() => createScrubber({ marker: '***' as unknown as () => string }))?.code).toBe(
      'CONFIG_INVALID',
    );
    expect(errorOf(() => createScrubber(null as unknown as object))?.code).toBe('CONFIG_INVALID');
  });

  it('refuses a rule without a usable maxLength (the stream hold-back would be NaN)', () => {
    const rule = {
      id: 'custom',
      description: 'custom',
      anchors: ['cst_'],
      pattern: /cst_[a-z]{10}/,
      positives: () => [],
      negatives: () => [],
    } as unknown as SecretRule;
    for (const maxLength of [undefined, Number.NaN, -1, 0, 2.5]) {
      const error = errorOf(() =>
        createScrubber({ rules: [...DEFAULT_RULES, { ...rule, maxLength } as SecretRule] }),
      );
      expect(error?.code).toBe('CONFIG_INVALID');
      expect(error?.message).toContain('maxLength');
    }
  });

  it('refuses non-string stream chunks and scrubExact input instead of printing "undefined"', () => {
    const scrubber = createScrubber();
    const stream = scrubber.createStreamScrubber();
    expect(stream.write('before ')).toBe('');
    expect(errorOf(() => stream.write(undefined as unknown as string))?.code).toBe('INVALID_ARGUMENTS');
    expect(errorOf(() => stream.write(Buffer.from('x') as unknown as string))?.code).toBe(
      'INVALID_ARGUMENTS',
    );
    // The refused chunk left the stream as it was.
    expect(stream.write(`${githubToken} after`) + stream.flush()).toBe(
      'before [REDACTED:github_token] after',
    );
    expect(errorOf(() => scrubber.scrubExact(5 as unknown as string))?.code).toBe('INVALID_ARGUMENTS');
  });

  it('accepts null options on addSecret as the defaults', () => {
    const scrubber = createScrubber();
    const held = fake.chars(ALPHABETS.alnum, 20);
    expect(scrubber.addSecret(held, null as unknown as undefined)).toBe(true);
    expect(scrubber.scrubText(held)).toBe('[REDACTED:secret]');
  });
});

describe('structured values at the edges', () => {
  const scrubber = createScrubber();

  it('scrubs objects and arrays nested 100,000 deep without overflowing the stack', () => {
    let object: unknown = { password, note: `uses ${githubToken}` };
    for (let i = 0; i < 100_000; i++) object = { child: object };
    let cursor = scrubber.scrubValue(object) as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) cursor = cursor.child as Record<string, unknown>;
    expect(cursor).toEqual({ password: '[REDACTED:password]', note: 'uses [REDACTED:github_token]' });

    let array: unknown = [githubToken];
    for (let i = 0; i < 100_000; i++) array = [array, 1];
    let item = scrubber.scrubValue(array) as unknown[];
    for (let i = 0; i < 100_000; i++) {
      expect(item[1]).toBe(1);
      item = item[0] as unknown[];
    }
    expect(item).toEqual(['[REDACTED:github_token]']);
  });

  it('keeps a `__proto__` key as data when walking (the walk runs for BigInt or cycles)', () => {
    const value = JSON.parse(`{"__proto__": {"note": "with ${githubToken}"}, "n": 1}`) as Record<
      string,
      unknown
    >;
    value.big = 10n;
    const scrubbed = scrubber.scrubValue(value);
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
    expect(Object.keys(scrubbed)).toEqual(['__proto__', 'n', 'big']);
    expect(Object.getOwnPropertyDescriptor(scrubbed, '__proto__')?.value).toEqual({
      note: 'with [REDACTED:github_token]',
    });
  });

  it('keeps an object shared by two parents (not a cycle) in both places, scrubbed', () => {
    const shared = { token_note: `t ${githubToken}` };
    const value = { a: shared, b: shared, big: 1n, list: [shared] };
    const scrubbed = scrubber.scrubValue(value);
    const expected = { token_note: 't [REDACTED:github_token]' };
    expect(scrubbed.a).toEqual(expected);
    expect(scrubbed.b).toEqual(expected);
    expect(scrubbed.list).toEqual([expected]);
  });

  it('keeps both entries when two keys are redacted to the same marker (no value lost)', () => {
    const other = `ghp_${fake.chars(ALPHABETS.alnum, 36)}`;
    const scrubbed = scrubber.scrubValue({
      tokens: { [githubToken]: { scopes: 'repo' }, [other]: { scopes: 'admin' } },
      password,
    });
    expect(scrubbed).toEqual({
      tokens: {
        '[REDACTED:github_token]': { scopes: 'repo' },
        '[REDACTED:github_token] #2': { scopes: 'admin' },
      },
      password: '[REDACTED:password]',
    });
  });

  it('copies a DAG whose paths double at every level once per object (30 levels: 2^30 paths)', () => {
    let node: Record<string, unknown> = { leaf: `k ${githubToken}`, big: 2n };
    for (let i = 0; i < 30; i++) node = { left: node, right: node, big: 1n };
    let scrubbed = scrubber.scrubValue(node) as Record<string, unknown>;
    for (let i = 0; i < 30; i++) scrubbed = scrubbed.right as Record<string, unknown>;
    expect(scrubbed.leaf).toBe('k [REDACTED:github_token]');
  });
});

describe('malformed results reaching the middleware', () => {
  const tool: RegisteredTool = {
    name: 'test__broken',
    localName: 'broken',
    spec: { name: 'broken', description: 'broken', inputSchema: { type: 'object' } },
    provider: { namespace: 'test', kind: 'local' },
  };
  const through = async (result: unknown): Promise<ToolResult> => {
    const middleware = scrubberMiddleware(createScrubber());
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    return handle({ tool, args: {}, ctx: createToolContext() }, async () => result as ToolResult);
  };

  it('withholds a result whose content is a string (it used to come back split into characters, unscrubbed)', async () => {
    const result = await through({ ok: true, content: `token ${githubToken}` });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain(githubToken.slice(4, 20));
    expect(!result.ok && result.error.message).toContain('malformed result');
  });

  it('says INTERNAL and names the problem for other malformed results, never INVALID_ARGUMENTS', async () => {
    for (const broken of [
      null,
      { ok: true, content: [null] },
      { ok: true, content: [{ type: 'text', text: 42 }] },
      { ok: false, error: { code: 'EXECUTION_FAILED' } },
    ]) {
      const result = await through(broken);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.code).toBe('INTERNAL');
      expect(!result.ok && result.error.message).toContain('malformed result');
    }
  });

  it('refuses a non-array to scrubPieces', () => {
    const scrubber = createScrubber();
    expect(errorOf(() => scrubber.scrubPieces('text' as unknown as string[]))?.code).toBe(
      'INVALID_ARGUMENTS',
    );
    expect(scrubber.scrubPieces([])).toEqual({ pieces: [], findings: [] });
  });
});

describe('the context the middleware passes on', () => {
  const tool: RegisteredTool = {
    name: 'test__ctx',
    localName: 'ctx',
    spec: { name: 'ctx', description: 'ctx', inputSchema: { type: 'object' } },
    provider: { namespace: 'test', kind: 'local' },
  };

  it("keeps a `signal` that is an accessor on the context's prototype (core allows lazy signals)", async () => {
    const controller = new AbortController();
    const base = createToolContext();
    const lazy = Object.create({
      get signal() {
        return controller.signal;
      },
    }) as ToolContext;
    const { signal: _own, ...fields } = base;
    Object.assign(lazy, fields);
    expect(lazy.signal).toBe(controller.signal);
    const middleware = scrubberMiddleware(createScrubber());
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    let seen: AbortSignal | undefined;
    await handle({ tool, args: {}, ctx: lazy }, async (inner) => {
      seen = inner.ctx.signal;
      return ok('done');
    });
    expect(seen).toBe(controller.signal);
  });

  it('scrubs a progress message that is not a string instead of throwing into the tool', async () => {
    const updates: unknown[] = [];
    const middleware = scrubberMiddleware(createScrubber());
    const handle = middleware.handle as NonNullable<typeof middleware.handle>;
    const result = await handle(
      { tool, args: {}, ctx: createToolContext({ progress: (update) => updates.push(update) }) },
      async (inner) => {
        inner.ctx.progress({ message: 42 as unknown as string, progress: 1 });
        inner.ctx.progress({ message: { token: githubToken } as unknown as string });
        return ok('done');
      },
    );
    expect(result.ok).toBe(true);
    expect(updates).toEqual([{ message: '42', progress: 1 }, { message: '[object Object]' }]);
  });
});
