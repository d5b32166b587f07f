import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type Middleware, type ToolResult, fail, ok } from '@toolplane/core';
import { type ToolHooks, type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, endedAfterEach, testProvider, waitFor } from '../helpers.js';

// The provider answered in time, but the PostToolUse hook (an audit log writing to a slow sink)
// is still running at the call's deadline. The deadline still ends the call there, and the
// caller, the hook, the tool_finished event, the accounting, the operation tree and the context
// budget all agree on one outcome: the answer the hook was given.

const { track, children } = endedAfterEach();

/**
 * An audit sink in a real child process that answers a line only when the test releases it
 * (or never): a slow or hung audit log.
 */
function slowSink(): { write: (line: string) => Promise<void>; writes: () => number; release: () => void } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `let held = [];
      require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
        if (line !== 'release') held.push(line);
        else for (const each of held.splice(0)) process.stdout.write(each + '\\n');
      });`,
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  children.push(child);
  child.stdout?.setEncoding('utf8');
  let writes = 0;
  return {
    write: async (line) => {
      writes++;
      child.stdin?.write(`${line}\n`);
      await once(child.stdout as NodeJS.ReadableStream, 'data');
    },
    writes: () => writes,
    release: () => child.stdin?.write('release\n'),
  };
}

interface Seen {
  readonly audit: string[];
  readonly finished: string[];
}

function watched(
  hooks: (seen: Seen) => ToolHooks,
  run: () => Promise<ToolResult> | ToolResult,
  middleware: Middleware[] = [],
): { local: ToolsOrchestrator; seen: Seen } {
  const seen: Seen = { audit: [], finished: [] };
  const local = createOrchestrator({ contextBudget: { maxTokensPerSession: 100_000 }, hooks: hooks(seen) });
  track(local);
  for (const each of middleware) local.use(each);
  local.register(testProvider('p', { work: { spec: { sideEffect: 'mutating' }, run } }));
  local.on('tool_finished', (event) => seen.finished.push(event.ok ? 'OK' : String(event.error?.code)));
  return { local, seen };
}

function booked(local: ToolsOrchestrator): string {
  const { records, totals } = local.accounting();
  return `${records.map((record) => record.code ?? 'OK').join(',')} errors=${totals.p__work?.errors}`;
}

function texts(result: ToolResult): string[] {
  return (result.content ?? []).map((block) => (block.type === 'text' ? block.text : block.type));
}

/** An audit hook that records the code it was given once its slow sink has taken it. */
function auditing(sink: ReturnType<typeof slowSink>): (seen: Seen) => ToolHooks {
  return (seen) => ({
    postToolUse: async ({ result }) => {
      const line = codeOf(result);
      seen.audit.push(line);
      await sink.write(line);
      return { additionalContext: 'audited' };
    },
  });
}

describe('a PostToolUse hook still running at the deadline', () => {
  it('the caller gets the answer the hook was given, as everyone else saw it (a hung hook)', async () => {
    const sink = slowSink();
    const { local, seen } = watched(auditing(sink), () => ok('y'.repeat(400)));
    const result = await local.call('p__work', {}, { timeoutMs: 300 });
    expect(codeOf(result)).toBe('OK');
    const [answer, note] = texts(result);
    expect(answer).toBe('y'.repeat(400));
    expect(note).toMatch(/PostToolUse hook did not finish within the call's 300 ms/);
    // the hook's own late decision ("audited") is not applied
    expect(texts(result)).not.toContain('audited');
    expect(seen).toEqual({ audit: ['OK'], finished: ['OK'] });
    expect(booked(local)).toBe('OK errors=0');
    expect(local.budgetUsed('default')).toBe(100);
    expect(local.operationTree('default')?.children[0]?.status).toBe('ok');
    expect(local.stats().inflight).toBe(0);
  });

  it('a failure the hook was given is the outcome too, not TIMEOUT', async () => {
    const sink = slowSink();
    const { local, seen } = watched(auditing(sink), () => fail('EXECUTION_FAILED', 'disk full'));
    const result = await local.call('p__work', {}, { timeoutMs: 300 });
    expect(codeOf(result)).toBe('EXECUTION_FAILED');
    expect(result.ok ? '' : result.error.message).toBe('disk full');
    expect(seen).toEqual({ audit: ['EXECUTION_FAILED'], finished: ['EXECUTION_FAILED'] });
    expect(booked(local)).toBe('EXECUTION_FAILED errors=1');
  });

  it('the hook finishing after the call ended changes nothing, and is not called again', async () => {
    const sink = slowSink();
    const { local, seen } = watched(auditing(sink), () => ok('z'));
    const first = await local.call('p__work', {}, { timeoutMs: 300 });
    expect(codeOf(first)).toBe('OK');
    sink.release();
    // a later call goes through the hook as usual once its sink answers
    const second = local.call('p__work', {}, { timeoutMs: 60_000 });
    await waitFor(() => sink.writes() === 2);
    sink.release();
    expect(texts(await second)).toEqual(['z', 'audited']);
    expect(seen.audit).toEqual(['OK', 'OK']);
    expect(seen.finished).toEqual(['OK', 'OK']);
    expect(booked(local)).toBe('OK,OK errors=0');
  });

  it('an app middleware outside the hook sees the same answer the caller gets', async () => {
    const sink = slowSink();
    const outer: string[] = [];
    const observer: Middleware = {
      name: 'outer-audit',
      phase: 'observe',
      async handle(call, next) {
        const result = await next(call);
        outer.push(`${codeOf(result)}:${texts(result).length}`);
        return result;
      },
    };
    const { local, seen } = watched(auditing(sink), () => ok('w'), [observer]);
    const result = await local.call('p__work', {}, { timeoutMs: 300 });
    expect(codeOf(result)).toBe('OK');
    await waitFor(() => outer.length === 1);
    expect(outer).toEqual([`OK:${texts(result).length}`]);
    expect(seen).toEqual({ audit: ['OK'], finished: ['OK'] });
  });

  it('a slow PreToolUse hook still ends the call TIMEOUT: nothing ran', async () => {
    const sink = slowSink();
    let ran = 0;
    let approved = false;
    const { local, seen } = watched(
      () => ({
        preToolUse: async () => {
          await sink.write('approve?');
          approved = true;
          return undefined;
        },
      }),
      () => {
        ran++;
        return ok('never');
      },
    );
    const result = await local.call('p__work', {}, { timeoutMs: 300 });
    expect(codeOf(result)).toBe('TIMEOUT');
    sink.release();
    await waitFor(() => approved);
    expect(ran).toBe(0);
    expect(seen.finished).toEqual(['TIMEOUT']);
    expect(local.budgetUsed('default') ?? 0).toBe(0);
  });
});

describe('an app middleware still running after its next() at the deadline', () => {
  it('ends the call TIMEOUT for everyone: the budget gives back what it counted, a hook outside is given TIMEOUT', async () => {
    const sink = slowSink();
    let middlewareSaw = '';
    // between the hooks (gate) and the context budget (output): it awaits a slow sink after next()
    const slowAfter: Middleware = {
      name: 'slow-after',
      phase: 'limit',
      async handle(call, next) {
        const result = await next(call);
        middlewareSaw = codeOf(result);
        await sink.write(middlewareSaw);
        return result;
      },
    };
    const { local, seen } = watched(
      (into) => ({
        postToolUse: ({ result }) => {
          into.audit.push(codeOf(result));
          return undefined;
        },
      }),
      () => ok('v'.repeat(400)),
      [slowAfter],
    );
    const result = await local.call('p__work', {}, { timeoutMs: 300 });
    expect(codeOf(result)).toBe('TIMEOUT');
    expect(middlewareSaw).toBe('OK');
    // the model never got the output: it is not counted against the session's budget
    expect(local.budgetUsed('default') ?? 0).toBe(0);
    sink.release();
    // the hook outside the middleware is told how the call ended, not the late answer
    await waitFor(() => seen.audit.length === 1);
    expect(seen).toEqual({ audit: ['TIMEOUT'], finished: ['TIMEOUT'] });
    expect(booked(local)).toBe('TIMEOUT errors=1');
    expect(local.budgetUsed('default') ?? 0).toBe(0);
  });
});
