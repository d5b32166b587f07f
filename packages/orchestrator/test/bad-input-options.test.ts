import { afterEach, describe, expect, it } from 'vitest';
import { type Middleware, ok } from '@toolplane/core';
import { type OrchestratorOptions, type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { VIEW, codeOf, counted, echo, messageOf, testProvider, thrownBy } from './helpers.js';

// Options of createOrchestrator(), call(), register(), use() and warmup() that cannot be used:
// refused with CONFIG_INVALID (or INVALID_ARGUMENTS for ids) before anything runs.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('options out of range are CONFIG_INVALID at creation, not a hang or a loop', () => {
  it.each<[OrchestratorOptions, string]>([
    [{ timeoutMs: 0 }, 'timeoutMs must be a positive number; got 0'],
    [{ timeoutMs: Number.NaN }, 'timeoutMs must be a positive number; got NaN'],
    [{ maxConcurrency: 0 }, 'maxConcurrency must be a number of at least 1; got 0'],
    [{ maxConcurrency: Number.NaN }, 'maxConcurrency must be a number of at least 1; got NaN'],
    [{ queues: { web: { maxConcurrency: -1 } } }, 'queues.web.maxConcurrency must be a number of at least 1'],
    [{ warmupConcurrency: Number.NaN }, 'warmupConcurrency must be a number of at least 1'],
    [{ startTimeoutMs: Number.NaN }, 'startTimeoutMs must be a positive number'],
    [{ retry: { maxAttempts: Number.NaN } }, 'retry.maxAttempts must be a number of at least 1'],
    [{ retry: { baseDelayMs: -5 } }, 'retry.baseDelayMs must be a number of 0 or more'],
    [{ output: { maxBytes: 0 } }, 'output.maxBytes must be a positive number'],
    [{ timeoutMs: '100' as unknown as number }, 'timeoutMs must be a positive number; got "100"'],
  ])('%j', (options, message) => {
    const error = thrownBy(() => createOrchestrator(options));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(message);
  });

  it('warmup({ concurrency: NaN }) is refused instead of starting no provider at all', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    await expect(orchestrator.warmup({ concurrency: Number.NaN })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
  });

  it.each([Number.NaN, -5, 0, '100'])(
    'a call timeoutMs of %j fails at once (no deadline-less call)',
    async (timeoutMs) => {
      orchestrator = createOrchestrator();
      const tool = counted();
      orchestrator.register(testProvider('t', { tool }));
      const result = await orchestrator.call('t__tool', {}, { timeoutMs: timeoutMs as number });
      expect(codeOf(result)).toBe('CONFIG_INVALID');
      expect(messageOf(result)).toContain(
        'timeoutMs for t__tool from the call options must be a positive number',
      );
      expect(tool.runs).toBe(0);
      expect(orchestrator.stats().inflight).toBe(0);
    },
  );

  it('a register() timeoutMs of NaN is refused; a tool spec timeoutMs of NaN is ignored with a warning', async () => {
    orchestrator = createOrchestrator();
    expect(
      thrownBy(() => orchestrator?.register(testProvider('p', { echo }), { timeoutMs: Number.NaN })).code,
    ).toBe('CONFIG_INVALID');
    const warnings: string[] = [];
    orchestrator.on('warning', (warning) => warnings.push(warning.message));
    orchestrator.register(
      testProvider('t', { slow: { spec: { timeoutMs: Number.NaN }, run: () => new Promise(() => {}) } }),
      { timeoutMs: 100 },
    );
    // the provider's 100 ms applies: a NaN deadline would never end the call
    expect(codeOf(await orchestrator.call('t__slow', {}))).toBe('TIMEOUT');
    expect(warnings.join('\n')).toContain('"slow" has timeoutMs NaN, not a positive number: ignored');
  });

  it('a call signal that is not an AbortSignal is CONFIG_INVALID, not a TypeError', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {}, { signal: {} as AbortSignal });
    expect(codeOf(result)).toBe('CONFIG_INVALID');
    expect(messageOf(result)).toContain('must be an AbortSignal');
  });
});

describe('registration and middleware of the wrong shape', () => {
  it('namespaces: missing, colliding, reserved, and providers without execute are CONFIG_INVALID', () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('a', { echo }));
    const missing = thrownBy(() =>
      orchestrator?.register({ ...testProvider('x', {}), namespace: undefined as unknown as string }),
    );
    expect(missing.code).toBe('CONFIG_INVALID');
    expect(missing.message).toContain('namespace of type undefined must match');
    expect(thrownBy(() => orchestrator?.register(testProvider('a', {}))).code).toBe('CONFIG_INVALID');
    expect(thrownBy(() => orchestrator?.register(testProvider('toolplane', {}))).message).toContain(
      "the orchestrator's own tools use it",
    );
    const noExecute = { ...testProvider('n', {}), execute: undefined as never };
    expect(thrownBy(() => orchestrator?.register(noExecute)).message).toContain('listTools() and execute()');
  });

  it('use() of null, an unknown phase or a handle that is not a function is CONFIG_INVALID', () => {
    orchestrator = createOrchestrator();
    expect(thrownBy(() => orchestrator?.use(null as unknown as Middleware)).code).toBe('CONFIG_INVALID');
    expect(thrownBy(() => orchestrator?.use({ name: 'm', phase: 'later' } as never)).code).toBe(
      'CONFIG_INVALID',
    );
    expect(
      thrownBy(() => orchestrator?.use({ name: 'm', phase: 'gate', handle: 'yes' } as never)).message,
    ).toContain('handle that is not a function');
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
});

describe('call options and aliases of the wrong shape', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'fast'],
  ])(
    'call options that are %s fail the call with CONFIG_INVALID; call() does not throw',
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
  ])('%s is refused and runs nothing', async (_what, options, code, text) => {
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
  ])('%s is CONFIG_INVALID; an empty tool name stays TOOL_NOT_FOUND', async (_what, alias, target) => {
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

describe('warmup options', () => {
  it('a warmup signal that is not an AbortSignal is CONFIG_INVALID and leaves the providers to the next warmup', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    await expect(orchestrator.warmup({ signal: 'stop' as never })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('the warmup signal must be an AbortSignal; got string'),
    });
    // the provider is still pending: the call starts it, and its tool exists
    expect(codeOf(await orchestrator.call('t__echo', {}))).toBe('OK');
  });
});

describe('register() options of the wrong shape', () => {
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
  ])('%s is CONFIG_INVALID and registers nothing', async (_what, options, text) => {
    orchestrator = createOrchestrator();
    const error = thrownBy(() => orchestrator?.register(testProvider('t', { echo }), options as never));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(text);
    expect(orchestrator.providers().map((provider) => provider.namespace)).toEqual(['toolplane']);
    // the namespace is still free
    orchestrator.register(testProvider('t', { echo }));
    expect(codeOf(await orchestrator.call('t__echo', {}))).toBe('OK');
  });
});
