import { afterEach, describe, expect, it } from 'vitest';
import { createLocalProvider, defineTool } from '@toolplane/core';
import { z } from 'zod';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { echo, testProvider, waitFor } from '../helpers.js';

let orchestrator: ToolsOrchestrator;
afterEach(async () => {
  await orchestrator?.close();
});

describe('tool map', () => {
  it('namespaces, sanitizes and suffixes collisions deterministically', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    orchestrator.register(testProvider('github', { search_code: echo, 'get issue': echo }));
    orchestrator.register(testProvider('git', { hub__search_code: echo }));
    orchestrator.register(testProvider('fs', { read: echo }, { prefixNames: false }));
    await orchestrator.warmup();
    expect(orchestrator.listTools().map((t) => t.name)).toEqual([
      'github__search_code',
      'github__get_issue',
      'git__hub__search_code',
      'read',
    ]);
  });

  it('suffixes true collisions in registration order', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    orchestrator.register(testProvider('a', { 'x.y': echo, x_y: echo }));
    await orchestrator.warmup();
    expect(orchestrator.listTools().map((t) => t.name)).toEqual(['a__x_y', 'a__x_y_2']);
    const second = await orchestrator.call('a__x_y_2', { n: 2 });
    expect(second.ok).toBe(true);
  });

  it('resolves aliases and the forms models send', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    orchestrator.register(testProvider('math', { add: echo }), { aliases: { plus: 'math__add' } });
    orchestrator.alias('sum', 'math__add');
    for (const name of [
      'math__add',
      'plus',
      'sum',
      'math.add',
      'math/add',
      'functions.math__add',
      'MATH__ADD',
      ' math__add ',
    ]) {
      const result = await orchestrator.call(name, {});
      expect(result.ok, name).toBe(true);
      expect(result.meta?.tool).toBe('math__add');
    }
  });

  it('answers TOOL_NOT_FOUND with suggestions', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    orchestrator.register(testProvider('math', { add: echo, subtract: echo }));
    const result = await orchestrator.call('math__ad', {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('TOOL_NOT_FOUND');
    expect(result.error.message).toContain('Did you mean "math__add"');
  });

  it('refuses duplicate and invalid namespaces', () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('a', {}));
    expect(() => orchestrator.register(testProvider('a', {}))).toThrow(/already registered/);
    expect(() => orchestrator.register(testProvider('bad name', {}))).toThrow(/must match/);
  });

  it('refreshes when a provider says its list changed', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    const provider = testProvider('live', { one: echo });
    orchestrator.register(provider);
    await orchestrator.warmup();
    const changes: number[] = [];
    orchestrator.on('tools_changed', (event) => changes.push(event.count));
    provider.changeTools({ one: echo, two: echo });
    await waitFor(() => orchestrator.hasTool('live__two'));
    expect(changes).toContain(2);
    expect((await orchestrator.call('live__two', {})).ok).toBe(true);
  });

  it('lists 10,000 tools and resolves them', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    const tools = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`tool_${i}`, echo]));
    orchestrator.register(testProvider('big', tools));
    await orchestrator.warmup();
    expect(orchestrator.listTools()).toHaveLength(10_000);
    expect(orchestrator.listTools()).toBe(orchestrator.listTools());
    expect(orchestrator.hasTool('big__tool_9999')).toBe(true);
  });

  it('combines provider and tool instructions', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    const tool = defineTool({
      name: 'now',
      description: 'Current time.',
      input: z.object({}),
      sideEffect: 'read',
      instructions: 'Use UTC.',
      execute: () => new Date(0).toISOString(),
    });
    orchestrator.register(
      createLocalProvider({ namespace: 'clock', tools: [tool], instructions: 'Clock tools.' }),
    );
    await orchestrator.warmup();
    expect(orchestrator.instructions()).toBe(
      '## clock\nClock tools.\n\n## Tool notes\n- clock__now: Use UTC.',
    );
  });
});

describe('warmup', () => {
  it('starts providers with limited concurrency; a failing or hanging one does not block the others', async () => {
    orchestrator = createOrchestrator({ internalTools: false, startTimeoutMs: 300 });
    let running = 0;
    let peak = 0;
    const slowStart = async (): Promise<void> => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
    };
    for (let i = 0; i < 6; i++)
      orchestrator.register(testProvider(`ok${i}`, { t: echo }, { start: slowStart }));
    orchestrator.register(
      testProvider(
        'broken',
        { t: echo },
        {
          start: async () => {
            throw new Error('cannot connect to 127.0.0.1:9');
          },
        },
      ),
    );
    orchestrator.register(testProvider('stuck', { t: echo }, { start: () => new Promise<void>(() => {}) }));
    const failures: string[] = [];
    orchestrator.on('provider_failed', (event) => failures.push(event.provider));
    const reports = await orchestrator.warmup({ concurrency: 3 });
    expect(peak).toBeLessThanOrEqual(3);
    expect(reports.filter((r) => r.ok)).toHaveLength(6);
    expect(reports.find((r) => r.provider === 'broken')?.error).toContain('cannot connect');
    expect(reports.find((r) => r.provider === 'stuck')?.error).toContain('did not start within 300 ms');
    expect(failures.sort()).toEqual(['broken', 'stuck']);
    expect((await orchestrator.call('ok5__t', {})).ok).toBe(true);
    const down = await orchestrator.call('broken__t', {});
    expect(!down.ok && down.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(!down.ok && down.error.message).toContain('cannot connect');
  });

  it('warms up lazily on the first call', async () => {
    orchestrator = createOrchestrator({ internalTools: false });
    orchestrator.register(testProvider('lazy', { t: echo }));
    expect((await orchestrator.call('lazy__t', { a: 1 })).ok).toBe(true);
  });
});
