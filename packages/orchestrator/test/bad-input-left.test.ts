import { afterEach, describe, expect, it } from 'vitest';
import { type RegisteredTool, ToolError, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, thrownBy, filtering, VIEW } from './bad-input-helpers.js';
import { echo, testProvider, waitFor } from './helpers.js';

// Items the first bad-input sweep noticed and left (see the README's "Bad input"): filters, session ids, hooks, options.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('a filterTools that throws or answers garbage', () => {
  it('a throw is CONFIG_INVALID naming the middleware (before: the raw error); the orchestrator still serves', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('picky', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'agentId')");
      }),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('middleware "picky" (gate) filterTools threw');
    expect(error.message).toContain("reading 'agentId'");
    expect(error.message).toContain('fix or remove that middleware');
    expect(thrownBy(() => orchestrator?.listRegistered(VIEW)).code).toBe('CONFIG_INVALID');
    // nothing else broke: the full list, calls, and the same call again
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 't__echo']);
    expect((await orchestrator.call('t__echo', { a: 1 })).ok).toBe(true);
    expect(thrownBy(() => orchestrator?.listTools(VIEW)).code).toBe('CONFIG_INVALID');
  });

  it('a thrown ToolError keeps its code (a filter may refuse a principal with DENIED)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('gatekeeper', () => {
        throw new ToolError('DENIED', 'agent "coder" may not list tools');
      }),
    );
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('DENIED');
    expect(error.message).toContain('agent "coder" may not list tools');
  });

  it.each<[string, unknown, string]>([
    ['undefined', undefined, 'returned undefined, not an array of tools'],
    ['a string', 'all', 'returned string, not an array of tools'],
    ['an array with a number', [42], 'returned an array whose entry 0 is not a registered tool'],
    ['a promise', Promise.resolve([]), 'returned object, not an array of tools'],
  ])(
    'an answer that is %s is CONFIG_INVALID (before: a TypeError or a list with holes)',
    async (_what, answer, text) => {
      orchestrator = createOrchestrator();
      orchestrator.use(filtering('broken', () => answer as readonly RegisteredTool[]));
      await orchestrator.warmup();
      const error = thrownBy(() => orchestrator?.listTools(VIEW));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`middleware "broken" (gate) filterTools ${text}`);
    },
  );

  it('a filter that adds a tool nobody registered is CONFIG_INVALID (before: listed, and TOOL_NOT_FOUND when called)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('inventor', (tools) => [
        ...tools,
        {
          name: 'ghost',
          localName: 'ghost',
          spec: { name: 'ghost', description: 'x', inputSchema: { type: 'object' } },
          provider: { namespace: 'none', kind: 'local' },
        },
      ]),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(
      'middleware "inventor" (gate) filterTools returned "ghost", which is no registered tool',
    );
  });

  it('a filter may hand back copies of registered tools (same names), say with shorter descriptions', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('terse', (tools) =>
        tools.map((tool) => ({ ...tool, spec: { ...tool.spec, description: 'short' } })),
      ),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    expect(orchestrator.listTools(VIEW).find((tool) => tool.name === 't__echo')?.description).toBe('short');
  });

  it('a filter that changes the array it is given cannot change the registry', async () => {
    orchestrator = createOrchestrator();
    orchestrator.use(
      filtering('in-place', (tools) => {
        (tools as RegisteredTool[]).splice(0, tools.length);
        return tools;
      }),
    );
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    // the list it is given is frozen: its change throws, which names it
    const error = thrownBy(() => orchestrator?.listTools(VIEW));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('middleware "in-place" (gate) filterTools threw');
    // before: the registry's own list was emptied, so every later listing was empty
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 't__echo']);
    expect(orchestrator.listRegistered().map((tool) => tool.name)).toContain('t__echo');
  });

  it('a listTools() answer cannot be changed by its receiver for the next one', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    await orchestrator.warmup();
    const first = orchestrator.listTools();
    try {
      (first as unknown as unknown[]).length = 0;
    } catch {
      // a frozen list refuses the change
    }
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['batch', 'tool_output', 't__echo']);
  });
});

describe('session ids that are no session id', () => {
  it.each<[string, unknown, string]>([
    ['empty', '', 'got an empty string'],
    ['a number', 42, 'got number'],
    ['null', null, 'got null'],
    ['an object', { id: 's' }, 'got object'],
    ['a huge string', 's'.repeat(100_000), 'got 100000 characters'],
  ])('an id that is %s is INVALID_ARGUMENTS and runs nothing (before: accepted)', async (_what, id, got) => {
    orchestrator = createOrchestrator();
    let runs = 0;
    orchestrator.register(
      testProvider('t', {
        count: {
          run: () => {
            runs++;
            return ok('ran');
          },
        },
      }),
    );
    const result = await orchestrator.call('t__count', {}, { session: { id: id as string } });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain(
      'session.id of a call to t__count must be a non-empty string of at most 256 characters',
    );
    expect(message).toContain(got);
    expect(message.length).toBeLessThan(500);
    expect(runs).toBe(0);
    // nothing was kept for it: no operation tree, and the call is recorded but not as a session of its own
    expect(orchestrator.operationTree(String(id))).toBeUndefined();
    expect(orchestrator.stats().inflight).toBe(0);
  });

  it('a session id of 256 characters is fine, and so is none at all (the "default" session)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const long = 's'.repeat(256);
    expect((await orchestrator.call('t__echo', {}, { session: { id: long } })).ok).toBe(true);
    expect(orchestrator.operationTree(long)).toBeDefined();
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
    expect((await orchestrator.call('t__echo', {}, { session: {} })).ok).toBe(true);
    expect(orchestrator.operationTree('default')?.children).toHaveLength(2);
  });

  it.each<[string, unknown, string]>([
    ['a string session', 'run-1', 'session of a call to t__echo must be an object'],
    [
      'a depth of -1',
      { id: 's', depth: -1 },
      'session.depth of a call to t__echo must be a whole number of 0 or more; got -1',
    ],
    ['a depth of NaN', { id: 's', depth: Number.NaN }, 'must be a whole number of 0 or more; got NaN'],
    ['a depth of "0"', { id: 's', depth: '0' }, 'must be a whole number of 0 or more; got "0"'],
    [
      'a parentId of 7',
      { id: 's', parentId: 7 },
      'session.parentId of a call to t__echo must be a non-empty string',
    ],
  ])(
    '%s is INVALID_ARGUMENTS (before: a session with junk fields, or depth checks that never match)',
    async (_what, session, text) => {
      orchestrator = createOrchestrator();
      orchestrator.register(testProvider('t', { echo }));
      const result = await orchestrator.call('t__echo', {}, { session: session as { id: string } });
      expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
      expect(result.ok ? '' : result.error.message).toContain(text);
    },
  );

  it('listTools(view) refuses a view whose session id is no session id', async () => {
    orchestrator = createOrchestrator();
    const seen: unknown[] = [];
    orchestrator.use({
      name: 'watch',
      phase: 'gate',
      filterTools: (tools, view) => {
        seen.push(view.session.id);
        return tools;
      },
    });
    await orchestrator.warmup();
    for (const id of ['', 42]) {
      const error = thrownBy(() => orchestrator?.listTools({ session: { id: id as string, depth: 0 } }));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('session.id of listTools(view) must be a non-empty string');
    }
    expect(seen).toEqual([]);
    expect(orchestrator.listTools({ session: { id: 'fine', depth: 0 } }).length).toBeGreaterThan(0);
    expect(seen).toEqual(['fine']);
  });
});

describe('next to them: middleware hooks of the wrong shape or that throw', () => {
  it('an onToolsChanged that throws is a warning; use(), calls and list refreshes go on (before: call() threw)', async () => {
    orchestrator = createOrchestrator();
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    let toldOther = 0;
    orchestrator.use({
      name: 'fragile',
      phase: 'gate',
      onToolsChanged: () => {
        throw new Error('cannot learn tools');
      },
    });
    orchestrator.use({ name: 'other', phase: 'gate', onToolsChanged: () => void toldOther++ });
    const provider = testProvider('t', { echo });
    orchestrator.register(provider);
    expect(codeOf(await orchestrator.call('t__echo', {}))).toBe('OK');
    // a list change: before, its rebuild rejected with nobody to catch it
    provider.changeTools({ echo, more: echo });
    await waitFor(() => orchestrator?.hasTool('t__more') === true);
    expect(codeOf(await orchestrator.call('t__more', {}))).toBe('OK');
    expect(warnings.join('\n')).toContain(
      'middleware "fragile" (gate) onToolsChanged threw: cannot learn tools',
    );
    // use, warmup and the refresh: the other middleware was told every time
    expect(toldOther).toBe(3);
  });

  it.each([
    ['filterTools', { filterTools: true }],
    ['onToolsChanged', { onToolsChanged: 'yes' }],
    ['close', { close: 5 }],
  ])(
    'use() of a middleware whose %s is not a function is CONFIG_INVALID and changes nothing',
    async (part, extra) => {
      orchestrator = createOrchestrator();
      orchestrator.register(testProvider('t', { echo }));
      await orchestrator.warmup();
      const error = thrownBy(() => orchestrator?.use({ name: 'odd', phase: 'gate', ...extra } as never));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`middleware "odd" has a ${part} that is not a function`);
      expect(orchestrator.listTools(VIEW).map((tool) => tool.name)).toContain('t__echo');
      await orchestrator.close();
      orchestrator = undefined;
    },
  );

  it('on() of an unknown event or a listener that is not a function is CONFIG_INVALID', () => {
    orchestrator = createOrchestrator();
    const unknown = thrownBy(() => orchestrator?.on('tool_done' as never, () => {}));
    expect(unknown.code).toBe('CONFIG_INVALID');
    expect(unknown.message).toContain(
      'unknown orchestrator event "tool_done"; use one of tool_started, tool_progress, tool_finished',
    );
    const notFunction = thrownBy(() => orchestrator?.on('warning', 'log' as never));
    expect(notFunction.code).toBe('CONFIG_INVALID');
    expect(notFunction.message).toContain('a listener of "warning" must be a function; got string');
  });
});

describe('next to them: call options and aliases of the wrong shape', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'fast'],
  ])(
    'call options that are %s fail the call with CONFIG_INVALID (before: call() threw a TypeError)',
    async (_what, options) => {
      orchestrator = createOrchestrator();
      orchestrator.register(testProvider('t', { echo }));
      const result = await orchestrator.call('t__echo', {}, options as never);
      expect(codeOf(result)).toBe('CONFIG_INVALID');
      expect(result.ok ? '' : result.error.message).toContain('the options of a call must be an object');
    },
  );

  it.each<[string, unknown, string, string]>([
    [
      'an empty callId',
      { callId: '' },
      'INVALID_ARGUMENTS',
      'callId of a call to t__echo must be a non-empty string of at most 256 characters',
    ],
    [
      'a numeric callId',
      { callId: 7 },
      'INVALID_ARGUMENTS',
      'callId of a call to t__echo must be a non-empty string',
    ],
    ['a huge callId', { callId: 'c'.repeat(10_000) }, 'INVALID_ARGUMENTS', 'got 10000 characters'],
    [
      'a NaN priority',
      { priority: Number.NaN },
      'CONFIG_INVALID',
      'priority of a call to t__echo must be a finite number (higher runs first, default 0); got NaN',
    ],
    [
      'a string priority',
      { priority: 'high' },
      'CONFIG_INVALID',
      'must be a finite number (higher runs first, default 0); got "high"',
    ],
  ])('%s is refused and runs nothing (before: accepted)', async (_what, options, code, text) => {
    orchestrator = createOrchestrator();
    let runs = 0;
    orchestrator.register(
      testProvider('t', {
        echo: {
          run: () => {
            runs++;
            return ok('ran');
          },
        },
      }),
    );
    const result = await orchestrator.call('t__echo', {}, options as never);
    expect(codeOf(result)).toBe(code);
    expect(result.ok ? '' : result.error.message).toContain(text);
    expect(runs).toBe(0);
  });

  it.each<[string, unknown, unknown]>([
    ['an empty alias', '', 't__echo'],
    ['a numeric alias', 42, 't__echo'],
    ['a numeric target', 'e', 42],
  ])('%s is CONFIG_INVALID (before: an empty tool name called t__echo)', async (_what, alias, target) => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const error = thrownBy(() => orchestrator?.alias(alias as string, target as string));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('an alias and its target must be non-empty strings');
    expect(codeOf(await orchestrator.call('', {}))).toBe('TOOL_NOT_FOUND');
  });

  it('register() aliases of the wrong shape are CONFIG_INVALID too', () => {
    orchestrator = createOrchestrator();
    const error = thrownBy(() =>
      orchestrator?.register(testProvider('t', { echo }), { aliases: { '': 't__echo' } }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('an alias and its target must be non-empty strings');
    expect(orchestrator.providers()).toEqual([expect.objectContaining({ namespace: 'toolplane' })]);
  });
});

describe('next to them: warmup options', () => {
  it('a warmup signal that is not an AbortSignal is CONFIG_INVALID and leaves the providers to the next warmup (before: a TypeError, and they never started)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    await expect(orchestrator.warmup({ signal: 'stop' as never })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('the warmup signal must be an AbortSignal; got string'),
    });
    // before: the provider stayed pending and nothing started it, so its tool did not exist
    expect(codeOf(await orchestrator.call('t__echo', {}))).toBe('OK');
  });
});

describe('next to them: a middleware that changes the tool it is handed', () => {
  it("cannot rewrite the registry's tool for every later caller: its call fails INTERNAL naming it", async () => {
    orchestrator = createOrchestrator();
    orchestrator.use({
      name: 'rewriter',
      phase: 'transform',
      handle: (call, next) => {
        (call.tool.spec as { description: string }).description = 'hijacked';
        return next(call);
      },
    });
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {});
    expect(codeOf(result)).toBe('INTERNAL');
    expect(result.ok ? '' : result.error.message).toContain('middleware "rewriter" (transform) threw');
    // before: every later listing (and every later call) saw the rewritten spec
    expect(orchestrator.listTools().find((tool) => tool.name === 't__echo')?.description).toBe('echo tool');
  });
});

describe('next to them: register() options of the wrong shape', () => {
  it.each<[string, unknown, string]>([
    [
      'null',
      null,
      'register("t") options must be an object { timeoutMs?, queue?, cacheTtlMs?, aliases? } or left out; got null',
    ],
    ['a string', 'fast', 'register("t") options must be an object'],
    [
      'aliases that are a string',
      { aliases: 'e' },
      'register("t").aliases must be an object { alias: "public tool name" }; got string',
    ],
    [
      'a queue that is a number',
      { queue: 7 },
      'register("t").queue must be a non-empty string naming a queue; got number',
    ],
  ])(
    '%s is CONFIG_INVALID and registers nothing (before: a TypeError, or accepted)',
    async (_what, options, text) => {
      orchestrator = createOrchestrator();
      const error = thrownBy(() => orchestrator?.register(testProvider('t', { echo }), options as never));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(text);
      expect(orchestrator.providers().map((provider) => provider.namespace)).toEqual(['toolplane']);
      // the namespace is still free
      orchestrator.register(testProvider('t', { echo }));
      expect(codeOf(await orchestrator.call('t__echo', {}))).toBe('OK');
    },
  );
});
