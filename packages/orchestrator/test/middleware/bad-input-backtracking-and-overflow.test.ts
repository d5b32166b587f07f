import { afterEach, describe, expect, it } from 'vitest';
import { type ToolResult, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { testProvider } from '../helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

function codeOf(result: ToolResult): string {
  return result.ok ? 'OK' : result.error.code;
}

describe('schema patterns that backtrack (ReDoS)', () => {
  it('a tool whose schema has ^(a+)+$ answers a crafted argument with INVALID_ARGUMENTS, not a frozen process', async () => {
    orchestrator = createOrchestrator({ timeoutMs: 60_000 });
    let runs = 0;
    orchestrator.register(
      testProvider('srv', {
        lookup: {
          spec: {
            inputSchema: {
              type: 'object',
              properties: {
                key: { type: 'string', pattern: '^(a+)+$' },
                tags: { type: 'object', patternProperties: { '^(\\w+\\s?)*$': { type: 'string' } } },
              },
              required: ['key'],
            },
          },
          run: () => {
            runs++;
            return ok('found');
          },
        },
      }),
    );
    const crafted = `${'a'.repeat(48)}!`;
    const result = await orchestrator.call('srv__lookup', { key: crafted });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(!result.ok && result.error.message).toContain('args.key: must match pattern "^(a+)+$"');
    const tags = await orchestrator.call('srv__lookup', {
      key: 'aaa',
      tags: { [`${'word '.repeat(20)}!`]: 1 },
    });
    expect(codeOf(tags)).toBe('OK'); // the name matches no pattern: the property is not checked
    const wrongTag = await orchestrator.call('srv__lookup', { key: 'aaa', tags: { 'two words': 1 } });
    expect(!wrongTag.ok && wrongTag.error.message).toContain('must be string');
    expect(codeOf(await orchestrator.call('srv__lookup', { key: 'aaaa' }))).toBe('OK');
    expect(runs).toBe(2);
  });

  it('a schema with lookaround is checked on short strings and reported once with a warning', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    orchestrator.register(
      testProvider('auth', {
        set_password: {
          spec: {
            inputSchema: {
              type: 'object',
              properties: { password: { type: 'string', pattern: '^(?=.*\\d)(?=.*[a-z]).{8,}$' } },
            },
          },
          run: () => ok('set'),
        },
      }),
    );
    const weak = await orchestrator.call('auth__set_password', { password: 'password' });
    expect(codeOf(weak)).toBe('INVALID_ARGUMENTS');
    expect(codeOf(await orchestrator.call('auth__set_password', { password: 'passw0rd' }))).toBe('OK');
    // too long to bound V8's backtracking: passed to the tool, which checks its own input
    const long = await orchestrator.call('auth__set_password', { password: `${'x'.repeat(5000)}` });
    expect(codeOf(long)).toBe('OK');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('input schema of auth__set_password has patterns');
    expect(warnings[0]).toContain('"^(?=.*\\\\d)(?=.*[a-z]).{8,}$"');
  });
});

describe('structured output set by a hook or middleware', () => {
  const provider = () => testProvider('p', { t: { run: () => ok('done', { rows: 1 }) } });

  it.each([
    ['a Date', { at: new Date(0) }, 'structured.at is a Date'],
    ['a BigInt', { size: 10n }, 'structured.size is a bigint'],
    ['a Map', { index: new Map([['a', 1]]) }, 'structured.index is a Map'],
    ['NaN', { rows: [Number.NaN] }, 'structured.rows[0] is NaN'],
    ['a function', { format: () => 1 }, 'structured.format is a function'],
  ])(
    'a PostToolUse hook that puts %s in structured fails the call naming the hook and the path',
    async (_kind, structured, path) => {
      orchestrator = createOrchestrator({
        hooks: { postToolUse: ({ result }) => ({ result: { ...result, structured } as ToolResult }) },
      });
      orchestrator.register(provider());
      const result = await orchestrator.call('p__t', {});
      expect(codeOf(result)).toBe('INTERNAL');
      expect(!result.ok && result.error.message).toContain('PostToolUse hook');
      expect(!result.ok && result.error.message).toContain(path);
    },
  );

  it('a PostToolUse hook that changes structured in place is caught the same way', async () => {
    orchestrator = createOrchestrator({
      hooks: {
        postToolUse: ({ result }) => {
          if (result.ok) (result.structured as Record<string, unknown>).seen = new Set([1]);
          return undefined;
        },
      },
    });
    orchestrator.register(provider());
    const result = await orchestrator.call('p__t', {});
    expect(!result.ok && result.error.message).toContain('structured.seen is a Set');
  });

  it.each(['transform', 'observe', 'cache'] as const)(
    'an app middleware (%s phase) that returns structured JSON cannot carry fails naming it and the path',
    async (phase) => {
      orchestrator = createOrchestrator();
      orchestrator.use({
        name: 'stamper',
        phase,
        handle: async (call, next) => {
          const result = await next(call);
          return result.ok ? { ...result, structured: { stamped: new Date(0) } } : result;
        },
      });
      orchestrator.register(provider());
      const result = await orchestrator.call('p__t', {});
      expect(codeOf(result)).toBe('INTERNAL');
      expect(!result.ok && result.error.message).toContain('middleware "stamper"');
      expect(!result.ok && result.error.message).toContain('structured.stamped is a Date');
    },
  );

  it('JSON data from a hook or middleware is kept as given', async () => {
    const structured = { rows: [1, 2], name: 'x', nested: { ok: true, none: null } };
    orchestrator = createOrchestrator({
      hooks: { postToolUse: ({ result }) => ({ result: { ...result, structured } as ToolResult }) },
    });
    orchestrator.use({ name: 'pass', phase: 'transform', handle: (call, next) => next(call) });
    orchestrator.register(provider());
    const result = await orchestrator.call('p__t', {});
    expect(result.ok && result.structured).toBe(structured);
  });
});

describe('schemas that overflow the stack when checked', () => {
  it('a schema that refers to itself without end ({ "$ref": "#" }) is reported once and the tool runs unvalidated', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    orchestrator.register(
      testProvider('loop', {
        self: { spec: { inputSchema: { type: 'object', $ref: '#' } }, run: () => ok('ran') },
      }),
    );
    expect(codeOf(await orchestrator.call('loop__self', { a: 1 }))).toBe('OK');
    expect(codeOf(await orchestrator.call('loop__self', {}))).toBe('OK');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('input schema of loop__self does not compile');
    expect(warnings[0]).toContain('refers to itself without end');
  });
});

describe('content blocks set by a hook or middleware', () => {
  it.each([
    [
      'a BigInt in annotations',
      { type: 'text', text: 'audited', annotations: { size: 1n } },
      'content[1].annotations is not JSON data',
    ],
    [
      'a getter',
      Object.defineProperty({ type: 'text' }, 'text', { get: () => 'late', enumerable: true }),
      'content[1].text is a getter',
    ],
  ])(
    'a PostToolUse hook that appends a block with %s fails naming the hook, as a provider would',
    async (_kind, block, problem) => {
      orchestrator = createOrchestrator({
        hooks: {
          postToolUse: ({ result }) =>
            result.ok
              ? { result: { ...result, content: [...result.content, block] } as ToolResult }
              : undefined,
        },
      });
      orchestrator.register(testProvider('p', { t: { run: () => ok('done') } }));
      const result = await orchestrator.call('p__t', {});
      expect(codeOf(result)).toBe('INTERNAL');
      expect(!result.ok && result.error.message).toContain('PostToolUse hook');
      expect(!result.ok && result.error.message).toContain(problem);
    },
  );

  it('an app middleware whose block carries a cycle in _meta fails naming it', async () => {
    orchestrator = createOrchestrator();
    const meta: Record<string, unknown> = {};
    meta.self = meta;
    orchestrator.use({
      name: 'tagger',
      phase: 'transform',
      handle: async (call, next) => {
        const result = await next(call);
        return result.ok ? { ...result, content: [{ type: 'text', text: 'tag', _meta: meta }] } : result;
      },
    });
    orchestrator.register(testProvider('p', { t: { run: () => ok('done') } }));
    const result = await orchestrator.call('p__t', {});
    expect(codeOf(result)).toBe('INTERNAL');
    expect(!result.ok && result.error.message).toContain('middleware "tagger"');
    expect(!result.ok && result.error.message).toContain('content[0]._meta is not JSON data');
  });
});
