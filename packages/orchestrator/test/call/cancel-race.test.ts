import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, endedAfterEach, testProvider, waitFor } from '../helpers.js';

// A cancel and the call's own end crossing: whatever wins, the caller, the tool_finished event,
// the accounting, the context budget and a PostToolUse hook (an audit log) see one outcome.

const { track, children } = endedAfterEach();

/** A child process that echoes every line it reads (an audit log's sink, answering when written). */
function echoChild(): ChildProcess {
  const child = spawn(
    process.execPath,
    ['-e', "process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => process.stdout.write(d));"],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  children.push(child);
  return child;
}

/**
 * An audit log's write to a real child process (answered once the child echoes it), and whether
 * a write has begun: the test cancels while one is in flight, after the provider answered.
 */
function auditSink(): { write: (line: string) => Promise<void>; writing: () => boolean } {
  const sink = echoChild();
  sink.stdout?.setEncoding('utf8');
  let writing = false;
  return {
    write: async (line) => {
      writing = true;
      sink.stdin?.write(`${line}\n`);
      await once(sink.stdout as NodeJS.ReadableStream, 'data');
    },
    writing: () => writing,
  };
}

/** What each party saw of the calls. */
interface Seen {
  readonly finished: string[];
  readonly audit: string[];
}

/** An orchestrator with a context budget, a `tool_finished` listener and an audit hook. */
function watched(
  provider: ReturnType<typeof testProvider>,
  auditWrite?: (line: string) => Promise<void>,
): { local: ToolsOrchestrator; seen: Seen } {
  const seen: Seen = { finished: [], audit: [] };
  const local = createOrchestrator({
    contextBudget: { maxTokensPerSession: 100_000 },
    hooks: {
      postToolUse: async ({ result }) => {
        const line = codeOf(result);
        await auditWrite?.(line);
        seen.audit.push(line);
        return undefined;
      },
    },
  });
  track(local);
  local.register(provider);
  local.on('tool_finished', (event) => seen.finished.push(event.ok ? 'OK' : String(event.error?.code)));
  return { local, seen };
}

/** The outcome the accounting has for the only call made. */
function booked(local: ToolsOrchestrator): { record: string; errors: number; calls: number } {
  const { records, totals } = local.accounting();
  const totalsOf = totals.p__work;
  return {
    record: records.map((record) => record.code ?? 'OK').join(','),
    errors: totalsOf?.errors ?? -1,
    calls: totalsOf?.calls ?? -1,
  };
}

describe('a cancel crossing the provider answer', () => {
  it('a cancel in the same tick the provider resolves: CANCELLED for everyone, no output counted', async () => {
    let answer: ((result: ToolResult) => void) | undefined;
    const provider = testProvider('p', {
      work: { spec: { sideEffect: 'none' }, run: () => new Promise((resolve) => (answer = resolve)) },
    });
    const { local, seen } = watched(provider);
    const call = local.call('p__work', {}, { callId: 'same-tick' });
    await waitFor(() => answer !== undefined);
    answer?.(ok('x'.repeat(400)));
    expect(local.cancel('same-tick', 'stop')).toBe(true);
    const result = await call;
    expect(codeOf(result)).toBe('CANCELLED');
    await waitFor(() => seen.audit.length === 1);
    expect(seen).toEqual({ finished: ['CANCELLED'], audit: ['CANCELLED'] });
    expect(booked(local)).toEqual({ record: 'CANCELLED', errors: 1, calls: 1 });
    expect(local.budgetUsed('default') ?? 0).toBe(0);
  });

  it('a provider that answers from inside its abort listener: CANCELLED for everyone', async () => {
    const provider = testProvider('p', {
      work: {
        spec: { sideEffect: 'none' },
        run: (_args, ctx) =>
          new Promise((resolve) => ctx.onAbort?.(() => resolve(ok('partial output, kept by nobody')))),
      },
    });
    const { local, seen } = watched(provider);
    const call = local.call('p__work', {}, { callId: 'in-listener' });
    await waitFor(() => local.stats().inflight === 1);
    expect(local.cancel('in-listener')).toBe(true);
    expect(codeOf(await call)).toBe('CANCELLED');
    await waitFor(() => seen.audit.length === 1);
    expect(seen).toEqual({ finished: ['CANCELLED'], audit: ['CANCELLED'] });
    expect(booked(local)).toEqual({ record: 'CANCELLED', errors: 1, calls: 1 });
    expect(local.budgetUsed('default') ?? 0).toBe(0);
  });
});

describe('a cancel after the provider answered, while the answer is on its way back', () => {
  // the PostToolUse hook writes each outcome to a real child process and waits for it to echo:
  // the test cancels while that write is in flight, then lets the child answer
  type Canceller = (local: ToolsOrchestrator, controller: AbortController) => boolean | undefined;
  it.each<[string, Canceller]>([
    ['cancel(callId)', (local) => local.cancel('on-way')],
    ['cancelAll()', (local) => local.cancelAll('stop everything') ?? undefined],
    [
      'the caller aborting its signal',
      (_local, controller) => controller.abort(new Error('stop')) ?? undefined,
    ],
  ])('%s keeps the result, and everyone sees it succeed', async (_how, cancel) => {
    const audit = auditSink();
    const provider = testProvider('p', {
      work: { spec: { sideEffect: 'none' }, run: () => ok('y'.repeat(400)) },
    });
    const { local, seen } = watched(provider, audit.write);
    const controller = new AbortController();
    const call = local.call('p__work', {}, { callId: 'on-way', signal: controller.signal });
    // the provider has answered; the audit hook waits on its child
    await waitFor(audit.writing);
    const answered = cancel(local, controller);
    const result = await call;
    expect(codeOf(result)).toBe('OK');
    expect(result.ok && result.content[0]?.type === 'text' && result.content[0].text).toBe('y'.repeat(400));
    if (answered !== undefined) expect(answered).toBe(false);
    expect(seen).toEqual({ finished: ['OK'], audit: ['OK'] });
    expect(booked(local)).toEqual({ record: 'OK', errors: 0, calls: 1 });
    expect(local.budgetUsed('default')).toBe(100);
  });

  it('close() at that moment ends the call at once with that answer, the same for the caller, the event and the accounting', async () => {
    const audit = auditSink();
    const provider = testProvider('p', { work: { spec: { sideEffect: 'none' }, run: () => ok('z') } });
    const { local, seen } = watched(provider, audit.write);
    const call = local.call('p__work', {});
    await waitFor(audit.writing);
    // close() ends the call at once: the hook is not waited for, the answer it was given is kept
    await local.close();
    const result = await call;
    expect(codeOf(result)).toBe('OK');
    expect(result.ok && result.content.map((block) => (block.type === 'text' ? block.text : ''))).toEqual([
      'z',
      '(the PostToolUse hook had not finished when the call was stopped (the orchestrator is closing); the result is returned without its decision)',
    ]);
    expect(seen.finished).toEqual(['OK']);
    expect(booked(local)).toEqual({ record: 'OK', errors: 0, calls: 1 });
  });

  it('a failure on its way back is kept too: a cancel does not turn it into CANCELLED', async () => {
    const audit = auditSink();
    const provider = testProvider('p', {
      work: { spec: { sideEffect: 'mutating' }, run: () => fail('EXECUTION_FAILED', 'disk full') },
    });
    const { local, seen } = watched(provider, audit.write);
    const call = local.call('p__work', {}, { callId: 'failing' });
    await waitFor(audit.writing);
    expect(local.cancel('failing')).toBe(false);
    expect(codeOf(await call)).toBe('EXECUTION_FAILED');
    expect(seen).toEqual({ finished: ['EXECUTION_FAILED'], audit: ['EXECUTION_FAILED'] });
    expect(booked(local)).toEqual({ record: 'EXECUTION_FAILED', errors: 1, calls: 1 });
  });
});
