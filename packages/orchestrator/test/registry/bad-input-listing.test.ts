import { afterEach, describe, expect, it } from 'vitest';
import { type ToolProvider, type ToolSpec, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, delay, echo, testProvider, thrownBy } from '../helpers.js';

// listTools() answers with entries that cannot be read, names listed twice, and input schemas
// that no arguments object could ever match.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

const objectSchema = { type: 'object', properties: {} } as const;

/** A fresh orchestrator (closed after the test) with provider `p` answering `listTools`, and its warnings. */
function listing(
  listTools: () => ToolSpec[],
  extra: Partial<ToolProvider> = {},
): { local: ToolsOrchestrator; warnings: string[] } {
  const local = createOrchestrator();
  orchestrator = local;
  const warnings: string[] = [];
  local.on('warning', (event) => warnings.push(event.message));
  local.register(testProvider('p', {}, { listTools, ...extra }));
  return { local, warnings };
}

function trap(): never {
  throw new Error('spec trap');
}

describe('a listTools() answer with entries of the wrong kind', () => {
  it('an entry whose fields throw when read is skipped with a warning; the other tools serve', async () => {
    const listed: unknown[] = [
      { name: 'good', description: 'works', inputSchema: objectSchema },
      new Proxy({}, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap }),
      {
        get name(): string {
          return trap();
        },
        inputSchema: objectSchema,
      },
    ];
    const runs: string[] = [];
    const { local, warnings } = listing(() => listed as ToolSpec[], {
      execute: async (name) => {
        runs.push(name);
        return ok(name);
      },
    });
    const [, report] = await local.warmup();
    expect(report).toMatchObject({ provider: 'p', ok: true, tools: 1 });
    expect(local.providers().find((each) => each.namespace === 'p')?.state).toBe('ready');
    expect(local.listTools().map((spec) => spec.name)).toContain('p__good');
    expect(codeOf(await local.call('p__good', {}))).toBe('OK');
    expect(runs).toEqual(['good']);
    expect(warnings.join('\n')).toMatch(
      /tool 1 cannot be read \(spec trap\): skipped; tool 2 cannot be read \(spec trap\): skipped/,
    );
  });

  it('a name listed twice keeps the first, with a warning', async () => {
    const { local, warnings } = listing(() => [
      { name: 'x', description: 'first', inputSchema: objectSchema },
      { name: 'x', description: 'second', inputSchema: objectSchema },
    ]);
    await local.warmup();
    const mine = local.listTools().filter((spec) => spec.name.startsWith('p__'));
    expect(mine.map((spec) => [spec.name, spec.description])).toEqual([['p__x', 'first']]);
    expect(warnings.join('\n')).toMatch(/tool 1 "x" is listed twice: the second is skipped/);
  });

  it.each<[string, unknown]>([
    ['a string', 'string'],
    ['an array', 'array'],
    ['a list without object', ['string', 'null']],
  ])(
    'an inputSchema of type %s is skipped: arguments are an object, so no call could match it',
    async (_what, type) => {
      const { local, warnings } = listing(
        () =>
          [
            { name: 'never', inputSchema: { type } },
            { name: 'nullable', inputSchema: { type: ['object', 'null'] } },
            { name: 'untyped', inputSchema: { properties: { q: { type: 'string' } } } },
          ] as unknown as ToolSpec[],
      );
      await local.warmup();
      const mine = local
        .listTools()
        .map((spec) => spec.name)
        .filter((name) => name.startsWith('p__'));
      expect(mine).toEqual(['p__nullable', 'p__untyped']);
      expect(warnings.join('\n')).toMatch(
        /tool 0 "never" has an inputSchema of type .*, not "object" \(arguments are always an object, so it could never be called\): skipped/,
      );
    },
  );
});

describe('an alias that is already the name of a tool', () => {
  it('is CONFIG_INVALID', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    local.register(
      testProvider('p', { old: { run: () => ok('old tool') }, fresh: { run: () => ok('fresh tool') } }),
    );
    await local.warmup();
    const error = thrownBy(() => local.alias('p__old', 'p__fresh'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(
      /"p__old" is already the name of a tool; an alias cannot take a tool's name/,
    );
    const result = await local.call('p__old', {});
    expect(result.ok && result.content[0]?.type === 'text' && result.content[0].text).toBe('old tool');
    // an alias that is no tool's name still works
    local.alias('legacy', 'p__fresh');
    expect(codeOf(await local.call('legacy', {}))).toBe('OK');
  });
});

describe('tool names that are blank', () => {
  it.each<[string, boolean]>([
    ['a namespaced provider', true],
    ['a provider with prefixNames: false', false],
  ])('in %s are skipped with a warning', async (_what, prefix) => {
    const runs: string[] = [];
    const blankNames = [' ', '\t\n', '\u00a0\u200b', ' search '];
    const { local, warnings } = listing(
      () => blankNames.map((name) => ({ name, description: 'blank', inputSchema: objectSchema })),
      {
        prefixNames: prefix,
        execute: async (name) => {
          runs.push(name);
          return ok(name);
        },
      },
    );
    await local.warmup();
    const mine = local
      .listTools()
      .map((spec) => spec.name)
      .filter((name) => !['batch', 'tool_output'].includes(name));
    // a name with words keeps its sanitized form, as core's naming rules say
    expect(mine).toEqual([prefix ? 'p___search_' : '_search_']);
    expect(warnings.join('\n')).toContain(
      'tool 0 has a blank name (" "): skipped; tool 1 has a blank name ("\\t\\n"): skipped; tool 2 has a blank name ("\\u00a0\\u200b"): skipped',
    );
    expect(codeOf(await local.call(prefix ? 'p___' : '___', {}))).toBe('TOOL_NOT_FOUND');
    expect(runs).toEqual([]);
  });

  it('an alias that is blank is CONFIG_INVALID, as an empty one is', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    local.register(testProvider('p', { real: { run: () => ok('real') } }));
    await local.warmup();
    for (const alias of [' ', '\t', '\u200b']) {
      const error = thrownBy(() => local.alias(alias, 'p__real'));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/an alias and its target must be non-empty strings/);
    }
    expect(thrownBy(() => local.alias('old', '  ')).code).toBe('CONFIG_INVALID');
    const refused = thrownBy(() =>
      local.register(testProvider('q', { x: { run: () => ok('x') } }), { aliases: { ' ': 'q__x' } }),
    );
    expect(refused.code).toBe('CONFIG_INVALID');
    expect(local.providers().map((each) => each.namespace)).not.toContain('q');
  });
});

describe('listTools answers of the wrong shape', () => {
  it('a list that is not an array fails that provider', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register({ ...testProvider('str', {}), listTools: () => 'nope' as never });
    orchestrator.register(testProvider('good', { echo }));
    const reports = await orchestrator.warmup();
    expect(reports.find((report) => report.provider === 'str')).toMatchObject({ ok: false, tools: 0 });
    expect(orchestrator.providers().find((p) => p.namespace === 'str')?.error).toContain(
      'listTools() returned string, not an array of tool specs',
    );
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 'good__echo']);
    expect(codeOf(await orchestrator.call('str__n', {}))).toBe('PROVIDER_UNAVAILABLE');
  });

  it('malformed entries are skipped with one warning; call() never throws', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    const listed = [
      undefined,
      { name: 42, description: 'x', inputSchema: { type: 'object' } },
      { name: '', description: 'x', inputSchema: { type: 'object' } },
      { name: 'noschema', description: 'x' },
      { name: 'fine', description: 'x', inputSchema: { type: 'object' } },
    ];
    orchestrator.register({
      ...testProvider('mixed', {}),
      listTools: () => listed as never,
      execute: async (name) => ok(`ran ${name}`),
    });
    const result = await orchestrator.call('mixed__fine', {});
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'ran fine' });
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual([
      'batch',
      'tool_output',
      'mixed__fine',
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('tool 0 is not an object');
    expect(warnings[0]).toContain('tool 1 has no name');
    expect(warnings[0]).toContain('"noschema" has no inputSchema object');
    expect(codeOf(await orchestrator.call('mixed__noschema', {}))).toBe('TOOL_NOT_FOUND');
  });

  it('a refresh that lists garbage keeps the previous list and warns', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    let answer: unknown = [{ name: 'a', description: 'a', inputSchema: { type: 'object' } }];
    const provider = testProvider('r', {});
    orchestrator.register({ ...provider, listTools: () => answer as never, execute: async () => ok('a') });
    await orchestrator.warmup();
    answer = { tools: [] };
    provider.changeTools({});
    await delay(20);
    expect(warnings.join('\n')).toContain('listTools() returned object, not an array');
    expect((await orchestrator.call('r__a', {})).ok).toBe(true);
  });
});
