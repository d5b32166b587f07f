import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, testProvider, waitFor } from '../helpers.js';

// What the cache keeps, the names tools keep and the media a result
// carries, across list changes and callers that change what they got.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('a cached answer changed in place by whoever got it', () => {
  it('a PostToolUse hook, an app middleware or the caller changing it in place leaves the cached answer as it was', async () => {
    const local = createOrchestrator({
      hooks: {
        postToolUse: ({ result }) => {
          // an audit hook that tags the result in place instead of returning additionalContext
          (result.content as unknown[]).push({ type: 'text', text: 'audited' });
          return undefined;
        },
      },
    });
    orchestrator = local;
    local.use({
      name: 'exclaim',
      phase: 'observe',
      async handle(call, next) {
        const result = await next(call);
        const first = result.content?.[0] as { type: string; text: string } | undefined;
        if (first?.type === 'text') first.text += '!';
        return result;
      },
    });
    let runs = 0;
    local.register(
      testProvider('p', {
        x: {
          spec: { sideEffect: 'none', cacheTtlMs: 60_000 },
          run: () => {
            runs++;
            return { ok: true, content: [{ type: 'text', text: 'x' }], structured: { items: [1] } };
          },
        },
      }),
    );
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await local.call('p__x', {});
      seen.push(JSON.stringify([result.content, result.ok && result.structured]));
      // the caller changes what it got, too
      if (result.ok) {
        (result.content as unknown[]).length = 0;
        (result.structured as { items: number[] }).items.push(99);
      }
    }
    const expected = JSON.stringify([
      [
        { type: 'text', text: 'x!' },
        { type: 'text', text: 'audited' },
      ],
      { items: [1] },
    ]);
    expect(seen).toEqual([expected, expected, expected]);
    expect(runs).toBe(1);
    expect(local.accounting().totals.p__x?.cached).toBe(2);
  });
});

describe('a cached answer across a list change', () => {
  it('a provider whose re-listed tools changed drops their cached answers', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const cached = { sideEffect: 'none', cacheTtlMs: 60_000 } as const;
    const provider = testProvider('p', { x: { spec: cached, run: () => ok('v1') } });
    const other = testProvider('q', { y: { spec: cached, run: () => ok('y') } });
    local.register(provider);
    local.register(other);
    const textOf = async (name: string): Promise<string> => {
      const result = await local.call(name, {});
      return result.ok && result.content[0]?.type === 'text' ? result.content[0].text : codeOf(result);
    };
    expect([await textOf('p__x'), await textOf('q__y')]).toEqual(['v1', 'y']);
    let changes = 0;
    local.on('tools_changed', () => changes++);
    provider.changeTools({
      x: { spec: { ...cached, description: 'x, second version' }, run: () => ok('v2') },
    });
    await waitFor(() => changes === 1);
    expect(await textOf('p__x')).toBe('v2');
    // another provider's cached answers are kept
    await textOf('q__y');
    expect(local.accounting().totals.q__y).toMatchObject({ calls: 2, cached: 1 });
  });
});

describe('public names across list changes', () => {
  it('a tool keeps its public name when another tool of that name comes or goes', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const bare = { prefixNames: false } as const;
    const deleter = { x: { spec: { description: 'A deletes files' }, run: () => ok('A deleted') } };
    const a = testProvider('a', deleter, bare);
    const b = testProvider('b', { x: { spec: { description: 'B reads' }, run: () => ok('B read') } }, bare);
    local.register(a);
    local.register(b);
    await local.warmup();
    let changes = 0;
    local.on('tools_changed', () => changes++);
    const named = (): string[] =>
      local
        .listTools()
        .filter((spec) => spec.name.startsWith('x'))
        .map((spec) => `${spec.name}: ${spec.description}`);
    expect(named()).toEqual(['x: A deletes files', 'x_2: B reads']);
    a.changeTools({});
    await waitFor(() => changes === 1);
    expect(named()).toEqual(['x_2: B reads']);
    // a model still holding the first list calls x: not B's tool under A's old name
    expect(codeOf(await local.call('x', {}))).toBe('TOOL_NOT_FOUND');
    a.changeTools(deleter);
    await waitFor(() => changes === 2);
    expect(named()).toEqual(['x: A deletes files', 'x_2: B reads']);
    // a model holding the second list calls x_2 to read: it still reads
    const read = await local.call('x_2', {});
    expect(read.ok && read.content[0]?.type === 'text' && read.content[0].text).toBe('B read');
  });
});

describe('many media blocks in one result', () => {
  it('a result carries at most maxMediaBytes of media in all, not per block; the rest is omitted with a note', async () => {
    const local = createOrchestrator({ output: { maxMediaBytes: 5_000_000 } });
    orchestrator = local;
    const image = { type: 'image', data: 'A'.repeat(1_000_000), mimeType: 'image/png' } as const;
    local.register(
      testProvider('p', {
        x: {
          run: () => ({ ok: true, content: [{ type: 'text', text: 'pictures' }, ...Array(40).fill(image)] }),
        },
      }),
    );
    const result = await local.call('p__x', {});
    expect(codeOf(result)).toBe('OK');
    const content = result.ok ? result.content : [];
    expect(content.filter((block) => block.type === 'image')).toHaveLength(5);
    expect(content[0]).toEqual({ type: 'text', text: 'pictures' });
    expect(content.at(-1)).toEqual({
      type: 'text',
      text: '[35 media blocks omitted: a result carries at most 5000000 bytes of media]',
    });
  });
});

describe('a provider that announces a list change after every listing', () => {
  it('an unchanged list rebuilds nothing and tells nobody; a real change still comes through', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    let announce: (() => void) | undefined;
    let listed = ['x'];
    let lists = 0;
    local.register(
      testProvider(
        'p',
        { x: { run: () => ok('x') }, y: { run: () => ok('y') } },
        {
          onToolsChanged: (listener) => {
            announce = listener;
            return () => undefined;
          },
          // a buggy server: every tools/list is followed by a list_changed notification
          listTools: () => {
            lists++;
            setTimeout(() => announce?.(), 0);
            return listed.map((name) => ({
              name,
              description: name,
              inputSchema: { type: 'object' } as const,
            }));
          },
        },
      ),
    );
    await local.warmup();
    let changes = 0;
    local.on('tools_changed', () => changes++);
    await waitFor(() => lists >= 4);
    expect(changes).toBe(0);
    listed = ['x', 'y'];
    await waitFor(() => changes === 1);
    expect(local.listTools().map((spec) => spec.name)).toContain('p__y');
    expect(codeOf(await local.call('p__y', {}))).toBe('OK');
  });
});
