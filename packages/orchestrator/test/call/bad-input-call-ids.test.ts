import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ToolResult, createLocalProvider, defineTool, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, relay, waitFor } from '../helpers.js';

// A caller-chosen callId names one call in flight: events, accounting, telemetry and the
// operation tree are keyed by it, and a context a middleware rebuilt is matched to its call by it.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('a callId already in flight', () => {
  it('is refused with INVALID_ARGUMENTS in the same session and in another; the first call is not harmed', async () => {
    orchestrator = createOrchestrator();
    const children = new Map<string, ChildProcess>();
    orchestrator.register(createLocalProvider({ namespace: 'p', tools: [relay(children)] }));
    const seen: string[] = [];
    orchestrator.on('tool_started', (event) => seen.push(`started ${event.callId} ${event.sessionId}`));
    orchestrator.on('tool_finished', (event) => seen.push(`finished ${event.callId} ${event.ok}`));

    const first = orchestrator.call('p__relay', { key: 'first' }, { callId: 'dup', session: { id: 's1' } });
    await waitFor(() => children.has('first'));

    const caller = new AbortController();
    const sameSession = await orchestrator.call(
      'p__relay',
      { key: 'second' },
      { callId: 'dup', session: { id: 's1' }, signal: caller.signal, timeoutMs: 2000 },
    );
    const otherSession = await orchestrator.call(
      'p__relay',
      { key: 'third' },
      { callId: 'dup', session: { id: 's2' }, timeoutMs: 2000 },
    );
    for (const refused of [sameSession, otherSession]) {
      expect(codeOf(refused)).toBe('INVALID_ARGUMENTS');
      const message = refused.ok ? '' : refused.error.message;
      expect(message).toContain('callId "dup" of a call to p__relay is already used by a call in flight');
      expect(message).toContain('give each call a fresh id, or leave callId out for a generated one');
      // recorded under an id of its own, so the call in flight keeps its events and records
      expect(refused.meta?.callId).not.toBe('dup');
    }
    // neither refusal started anything
    expect([...children.keys()]).toEqual(['first']);
    // stopping the refused call's caller signal leaves the first running
    caller.abort();
    expect(orchestrator.stats().inflight).toBe(1);
    expect(children.get('first')?.exitCode).toBeNull();

    children.get('first')?.stdin?.write('released\n');
    const result = await first;
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'first:released' }] });
    expect(result.meta?.callId).toBe('dup');
    expect(seen.filter((line) => line.includes(' dup '))).toEqual(['started dup s1', 'finished dup true']);
    const records = orchestrator.accounting().records.filter((record) => record.callId === 'dup');
    expect(records).toHaveLength(1);
    expect(records[0]?.ok).toBe(true);
    expect(orchestrator.operationTree('s1')?.children.filter((node) => node.id === 'dup')).toHaveLength(1);
    expect(orchestrator.operationTree('s2')?.children.some((node) => node.id === 'dup') ?? false).toBe(false);
  });

  it('is free again once its call has finished (a model may resend a tool call after a timeout)', async () => {
    orchestrator = createOrchestrator();
    const children = new Map<string, ChildProcess>();
    orchestrator.register(createLocalProvider({ namespace: 'p', tools: [relay(children)] }));
    const timedOut = await orchestrator.call('p__relay', { key: 'slow' }, { callId: 'again', timeoutMs: 50 });
    expect(codeOf(timedOut)).toBe('TIMEOUT');
    const second = orchestrator.call('p__relay', { key: 'retry' }, { callId: 'again' });
    await waitFor(() => children.has('retry'));
    children.get('retry')?.stdin?.write('done\n');
    const result = await second;
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'retry:done' }] });
    expect(result.meta?.callId).toBe('again');
  });

  it('a middleware that rebuilds the context from scratch reaches its own call, not the other one with that id', async () => {
    orchestrator = createOrchestrator();
    const children = new Map<string, ChildProcess>();
    orchestrator.register(createLocalProvider({ namespace: 'p', tools: [relay(children)] }));
    // a context built field by field carries no trace of its call's state but its callId
    orchestrator.use({
      name: 'rebuilder',
      phase: 'transform',
      handle: (call, next) =>
        next({
          ...call,
          ctx: {
            signal: call.ctx.signal,
            callId: call.ctx.callId,
            principal: call.ctx.principal,
            session: call.ctx.session,
            trace: call.ctx.trace,
            services: call.ctx.services,
            progress: call.ctx.progress,
          },
        }),
    });
    const first = orchestrator.call('p__relay', { key: 'first' }, { callId: 'shared' });
    await waitFor(() => children.has('first'));
    const second = await orchestrator.call(
      'p__relay',
      { key: 'second' },
      { callId: 'shared', timeoutMs: 100 },
    );
    expect(codeOf(second)).toBe('INVALID_ARGUMENTS');
    children.get('first')?.stdin?.write('fine\n');
    expect(await first).toMatchObject({ ok: true, content: [{ type: 'text', text: 'first:fine' }] });
  });

  it('a tool that passes its own generated ctx.callId to a nested call is refused, and its own call goes on', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    let nested: ToolResult | undefined;
    let ownId = '';
    const outer = defineTool({
      name: 'outer',
      description: 'Calls another tool under its own call id.',
      input: z.object({}),
      sideEffect: 'none',
      execute: async (_args, ctx) => {
        ownId = ctx.callId;
        nested = await local.call('p__inner', {}, { callId: ctx.callId });
        return ok('outer done');
      },
    });
    const inner = defineTool({
      name: 'inner',
      description: 'Answers.',
      input: z.object({}),
      sideEffect: 'none',
      execute: () => ok('inner ran'),
    });
    local.register(createLocalProvider({ namespace: 'p', tools: [outer, inner] }));
    const result = await local.call('p__outer', {});
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'outer done' }] });
    expect(result.meta?.callId).toBe(ownId);
    expect(nested && codeOf(nested)).toBe('INVALID_ARGUMENTS');
    expect(nested?.ok ? '' : nested?.error.message).toContain(
      `callId "${ownId}" of a call to p__inner is already used`,
    );
  });
});

describe('call options whose fields throw when read', () => {
  it.each<[string, () => unknown]>([
    [
      'a callId getter',
      () => ({
        get callId(): string {
          throw new Error('callId getter exploded');
        },
      }),
    ],
    [
      'a Proxy',
      () =>
        new Proxy(
          {},
          {
            get() {
              throw new Error('proxy exploded');
            },
          },
        ),
    ],
    [
      'a trace getter next to a valid callId',
      () => ({
        callId: 'leaky',
        get trace(): never {
          throw new Error('trace getter exploded');
        },
      }),
    ],
    [
      'a session whose fields throw',
      () => ({
        callId: 'leaky',
        session: {
          id: 's1',
          get mode(): never {
            throw new Error('session getter exploded');
          },
        },
      }),
    ],
  ])('%s is CONFIG_INVALID, and leaves no call in flight', async (_what, options) => {
    orchestrator = createOrchestrator();
    orchestrator.register(createLocalProvider({ namespace: 'p', tools: [relay(new Map())] }));
    await orchestrator.warmup();
    let outcome: ToolResult | Error;
    try {
      outcome = await orchestrator.call('p__relay', { key: 'x' }, options() as never);
    } catch (error) {
      outcome = error as Error;
    }
    expect(outcome instanceof Error ? `rejected: ${outcome.message}` : codeOf(outcome)).toBe(
      'CONFIG_INVALID',
    );
    const message = outcome instanceof Error || outcome.ok ? '' : outcome.error.message;
    expect(message).toMatch(
      /^reading the options of a call to p__relay threw: .* exploded; pass a plain object/,
    );
    expect(orchestrator.stats().inflight).toBe(0);
    // the id is not left held: a call with it runs
    const again = orchestrator.call('p__relay', { key: 'y' }, { callId: 'leaky', timeoutMs: 50 });
    expect(codeOf(await again)).toBe('TIMEOUT');
  });
});
