import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ToolResult, createLocalProvider, defineTool, fail, ok, onAbort } from '@toolplane/core';
import { type OrchestratorOptions, type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import {
  type Children,
  batchEntries,
  codeOf,
  echoChild,
  messageOf,
  relay,
  reporter,
  slowStarting,
  thrownBy,
  waitFor,
} from '../helpers.js';

// orchestrator.cancel(callId, reason?): one call stopped by its id (a user's "stop that call",
// an MCP notifications/cancelled), without the AbortSignal its caller passed.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** A fresh orchestrator (closed after the test) and the child processes of its relay tools. */
function withChildren(options?: OrchestratorOptions): { local: ToolsOrchestrator; children: Children } {
  const local = createOrchestrator(options);
  orchestrator = local;
  return { local, children: new Map() };
}

/** {@link withChildren}, with provider `p` serving the relay tool (in `queue`, when given). */
function relaying(
  options?: OrchestratorOptions,
  queue?: string,
): { local: ToolsOrchestrator; children: Children } {
  const made = withChildren(options);
  made.local.register(createLocalProvider({ namespace: 'p', tools: [relay(made.children, queue)] }));
  return made;
}

/** A relay call `c-1` running (its child started), and what lets it finish with `on`. */
async function keptRunning(): Promise<{
  local: ToolsOrchestrator;
  finish: () => Promise<ToolResult>;
}> {
  const { local, children } = relaying();
  const running = local.call('p__relay', { key: 'kept' }, { callId: 'c-1' });
  await waitFor(() => children.has('kept'));
  return {
    local,
    finish: () => {
      children.get('kept')?.stdin?.write('on\n');
      return running;
    },
  };
}

/** Whether a child process has ended (killed or exited). */
function ended(child: ChildProcess | undefined): boolean {
  return child !== undefined && (child.exitCode !== null || child.signalCode !== null);
}

/** Every tool_started and tool_finished event, as text. */
function recordEvents(local: ToolsOrchestrator): string[] {
  const seen: string[] = [];
  local.on('tool_started', (event) => seen.push(`started ${event.callId}`));
  local.on('tool_finished', (event) =>
    seen.push(`finished ${event.callId} ${event.ok ? 'OK' : event.error?.code}`),
  );
  return seen;
}

describe('cancel(callId, reason?) of a running call', () => {
  it('ends it CANCELLED with the reason, stops its provider, and records it once', async () => {
    const { local, children } = relaying();
    const seen = recordEvents(local);
    const target = local.call('p__relay', { key: 'target' }, { callId: 'c-1', session: { id: 's1' } });
    const other = local.call('p__relay', { key: 'other' }, { callId: 'c-2', session: { id: 's1' } });
    await waitFor(() => children.has('target') && children.has('other'));

    expect(local.cancel('c-1', 'the user said stop')).toBe(true);
    const result = await target;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result)).toContain('the user said stop');
    expect(result.meta?.callId).toBe('c-1');
    await waitFor(() => ended(children.get('target')));
    expect(children.get('target')?.signalCode).toBe('SIGKILL');

    // a second cancel of the same id finds no call in flight
    expect(local.cancel('c-1', 'again')).toBe(false);
    // the other call was not touched
    expect(ended(children.get('other'))).toBe(false);
    children.get('other')?.stdin?.write('fine\n');
    expect(await other).toMatchObject({ ok: true, content: [{ type: 'text', text: 'other:fine' }] });

    expect(seen.filter((line) => line.includes('c-1'))).toEqual(['started c-1', 'finished c-1 CANCELLED']);
    const records = local.accounting().records.filter((record) => record.callId === 'c-1');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(local.accounting().totals.p__relay).toMatchObject({ calls: 2, errors: 1 });
    expect(local.stats().inflight).toBe(0);
  });

  it('finds a call by the generated id its events carry, with a default reason', async () => {
    const { local, children } = relaying();
    let started = '';
    local.on('tool_started', (event) => {
      started = event.callId;
    });
    const call = local.call('p__relay', { key: 'generated' });
    await waitFor(() => children.has('generated'));
    expect(started).not.toBe('');
    expect(local.cancel(started)).toBe(true);
    const result = await call;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result)).toMatch(/cancel/);
    expect(result.meta?.callId).toBe(started);
  });
});

describe('cancel(callId) and the calls a call started', () => {
  it('cancels the nested calls a tool made with its ctx.signal; cancelling a nested call alone leaves its parent running', async () => {
    const { local, children } = withChildren();
    const nested: ToolResult[] = [];
    const outer = defineTool({
      name: 'outer',
      description: 'Calls relay twice, one after the other, with its own signal.',
      input: z.object({ prefix: z.string() }),
      sideEffect: 'none',
      execute: async ({ prefix }, ctx) => {
        for (const step of ['a', 'b']) {
          const result = await local.call(
            'p__relay',
            { key: `${prefix}-${step}` },
            { callId: `${prefix}-${step}`, signal: ctx.signal },
          );
          nested.push(result);
          if (ctx.signal.aborted) return fail('CANCELLED', 'stopped');
        }
        return ok(`${prefix} done`);
      },
    });
    local.register(createLocalProvider({ namespace: 'p', tools: [relay(children), outer] }));

    // cancelling the parent stops the nested call it is waiting on, and kills that call's child
    const parent = local.call('p__outer', { prefix: 'x' }, { callId: 'parent-x' });
    await waitFor(() => children.has('x-a'));
    expect(local.cancel('parent-x', 'stop the whole thing')).toBe(true);
    const parentResult = await parent;
    expect(codeOf(parentResult)).toBe('CANCELLED');
    expect(messageOf(parentResult)).toContain('stop the whole thing');
    await waitFor(() => nested.length === 1);
    expect(codeOf(nested[0] as ToolResult)).toBe('CANCELLED');
    expect(messageOf(nested[0] as ToolResult)).toContain('stop the whole thing');
    await waitFor(() => ended(children.get('x-a')));
    expect(children.has('x-b')).toBe(false);
    await waitFor(() => local.stats().inflight === 0);

    // cancelling one nested call: the parent gets its CANCELLED result and goes on
    nested.length = 0;
    const second = local.call('p__outer', { prefix: 'y' }, { callId: 'parent-y' });
    await waitFor(() => children.has('y-a'));
    expect(local.cancel('y-a', 'skip this step')).toBe(true);
    await waitFor(() => children.has('y-b'));
    children.get('y-b')?.stdin?.write('ok\n');
    expect(await second).toMatchObject({ ok: true, content: [{ type: 'text', text: 'y done' }] });
    expect(nested.map(codeOf)).toEqual(['CANCELLED', 'OK']);
    expect(messageOf(nested[0] as ToolResult)).toContain('skip this step');
  });

  it('cancels a batch as a whole, its running calls included; one call of a batch alone leaves the rest', async () => {
    const { local, children } = relaying();
    const ids: string[] = [];
    local.on('tool_started', (event) => ids.push(event.callId));
    const calls = [
      { tool: 'p__relay', args: { key: 'b1' } },
      { tool: 'p__relay', args: { key: 'b2' } },
    ];

    const whole = local.call('batch', { calls }, { callId: 'batch-1' });
    await waitFor(() => children.has('b1') && children.has('b2'));
    expect(local.cancel('batch-1', 'not needed')).toBe(true);
    const wholeResult = await whole;
    expect(codeOf(wholeResult)).toBe('CANCELLED');
    expect(messageOf(wholeResult)).toContain('not needed');
    await waitFor(() => ended(children.get('b1')) && ended(children.get('b2')));
    await waitFor(() => local.stats().inflight === 0);

    children.clear();
    ids.length = 0;
    const partial = local.call('batch', {
      calls: [
        { tool: 'p__relay', args: { key: 'c1' } },
        { tool: 'p__relay', args: { key: 'c2' } },
      ],
    });
    await waitFor(() => children.has('c1') && children.has('c2') && ids.length === 3);
    // the batch's own call started first; its calls after it, in order
    const firstCall = ids[1] as string;
    expect(local.cancel(firstCall, 'drop the first')).toBe(true);
    await waitFor(() => ended(children.get('c1')));
    children.get('c2')?.stdin?.write('kept\n');
    const entries = batchEntries(await partial);
    expect(entries.map((entry) => (entry.ok ? 'OK' : entry.error?.code))).toEqual(['CANCELLED', 'OK']);
    expect(entries[0]?.error?.message).toContain('drop the first');
    expect(entries[1]?.text).toBe('c2:kept');
  });
});

describe('cancel(callId) of a call that has not started running', () => {
  it('ends a call waiting in a queue CANCELLED without running it, and keeps the slot', async () => {
    const { local, children } = relaying({ queues: { one: { maxConcurrency: 1 } } }, 'one');
    const seen = recordEvents(local);
    const first = local.call('p__relay', { key: 'first' }, { callId: 'q-1' });
    await waitFor(() => children.has('first'));
    const waiting = local.call('p__relay', { key: 'waiting' }, { callId: 'q-2' });
    const after = local.call('p__relay', { key: 'after' }, { callId: 'q-3' });
    await waitFor(() => local.stats().queues.one?.waiting === 2);

    expect(local.cancel('q-2', 'no longer wanted')).toBe(true);
    const result = await waiting;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result)).toContain('no longer wanted');
    expect(local.stats().queues.one).toMatchObject({ running: 1, waiting: 1 });

    children.get('first')?.stdin?.write('one\n');
    expect(codeOf(await first)).toBe('OK');
    await waitFor(() => children.has('after'));
    children.get('after')?.stdin?.write('three\n');
    expect(codeOf(await after)).toBe('OK');
    // the cancelled call never ran
    expect(children.has('waiting')).toBe(false);
    expect(seen.filter((line) => line.includes('q-2'))).toEqual(['started q-2', 'finished q-2 CANCELLED']);
    expect(local.accounting().records.filter((record) => record.callId === 'q-2')).toHaveLength(1);
  });

  it('ends a call waiting for approval CANCELLED; an approval that comes later runs nothing', async () => {
    const approvers: ChildProcess[] = [];
    let approverAborted = false;
    const { local, children } = relaying({
      hooks: {
        // the approval comes from a real child process (a stand-in for a person at a terminal)
        preToolUse: async ({ ctx }) => {
          const approver = spawn(
            process.execPath,
            ['-e', "process.stdin.once('data', (d) => { process.stdout.write(d); process.exit(0); })"],
            { stdio: ['pipe', 'pipe', 'ignore'] },
          );
          approvers.push(approver);
          onAbort(ctx, () => {
            approverAborted = true;
          });
          let answer = '';
          approver.stdout?.setEncoding('utf8');
          approver.stdout?.on('data', (text: string) => {
            answer += text;
          });
          await once(approver, 'exit');
          return answer.trim() === 'yes' ? {} : { deny: true, reason: 'no' };
        },
      },
    });
    const call = local.call('p__relay', { key: 'asked' }, { callId: 'ask-1' });
    await waitFor(() => approvers.length === 1);
    expect(local.cancel('ask-1', 'the user withdrew it')).toBe(true);
    const result = await call;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result)).toContain('the user withdrew it');
    expect(approverAborted).toBe(true);
    // the approval arrives after the call ended: nothing runs
    approvers[0]?.stdin?.write('yes\n');
    await once(approvers[0] as ChildProcess, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(children.has('asked')).toBe(false);
    expect(local.accounting().records.filter((record) => record.callId === 'ask-1')).toHaveLength(1);
  });

  it('ends a call waiting for its provider to start CANCELLED without running it', async () => {
    const { local, children } = withChildren();
    // a provider whose start waits on a real child process (a slow MCP server, say)
    const { provider, releaseStart } = slowStarting(
      createLocalProvider({ namespace: 'p', tools: [relay(children)] }),
    );
    local.register(provider);
    const seen = recordEvents(local);
    const call = local.call('p__relay', { key: 'early' }, { callId: 'w-1' });
    await waitFor(() => local.providers().some((provider) => provider.state === 'starting'));
    expect(local.cancel('w-1', 'changed my mind')).toBe(true);
    releaseStart();
    const result = await call;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result)).toContain('changed my mind');
    expect(children.has('early')).toBe(false);
    // it ends at once, before its tool is listed: refused like a call that never started running
    expect(seen.filter((line) => line.includes('w-1'))).toEqual(['finished w-1 CANCELLED']);
    expect(local.accounting().records.filter((record) => record.callId === 'w-1')).toHaveLength(1);
    // a later call with the same id runs: the cancel was used up by the call it ended
    const again = local.call('p__relay', { key: 'later' }, { callId: 'w-1' });
    await waitFor(() => children.has('later'));
    children.get('later')?.stdin?.write('ran\n');
    expect(codeOf(await again)).toBe('OK');
  });
});

describe('cancel() of everything while a provider starts', () => {
  it('ends the calls waiting for it CANCELLED; they do not run once it has started', async () => {
    const { local, children } = withChildren();
    const { provider, releaseStart } = slowStarting(
      createLocalProvider({ namespace: 'p', tools: [relay(children)] }),
    );
    local.register(provider);
    const calls = [
      local.call('p__relay', { key: 'generated' }),
      local.call('p__relay', { key: 'chosen' }, { callId: 'all-1' }),
    ];
    await waitFor(() => local.providers().some((provider) => provider.state === 'starting'));
    local.cancelAll('shutting the agent down');
    releaseStart();
    const results = await Promise.all(calls);
    expect(results.map(codeOf)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(results.map(messageOf)).toEqual(['shutting the agent down', 'shutting the agent down']);
    expect(children.size).toBe(0);
    // later calls run
    const later = local.call('p__relay', { key: 'later' });
    await waitFor(() => children.has('later'));
    children.get('later')?.stdin?.write('ran\n');
    expect(codeOf(await later)).toBe('OK');
  });
});

describe('cancel(callId) of an id no call in flight has, and bad input', () => {
  it('answers false for an unknown or finished id, and records nothing', async () => {
    const { local, children } = relaying();
    const seen = recordEvents(local);
    expect(local.cancel('never-seen')).toBe(false);
    expect(local.cancel('', 'empty')).toBe(false);
    expect(local.cancel('x'.repeat(1_000_000))).toBe(false);
    const done = local.call('p__relay', { key: 'done' }, { callId: 'done-1' });
    await waitFor(() => children.has('done'));
    children.get('done')?.stdin?.write('yes\n');
    expect(codeOf(await done)).toBe('OK');
    expect(local.cancel('done-1', 'too late')).toBe(false);
    expect(seen).toHaveLength(2);
    expect(local.accounting().records).toHaveLength(1);
    // after close nothing is in flight
    await local.close();
    expect(local.cancel('done-1')).toBe(false);
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a number (an MCP request id not turned into a string)', 42],
    ['an object', { callId: 'c-1' }],
  ])('throws INVALID_ARGUMENTS for a call id that is %s, and cancels nothing', async (_what, id) => {
    const { local, finish } = await keptRunning();
    const error = thrownBy(() => local.cancel(id as string));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/^cancel\(callId\) needs the call's id as a string; got /);
    expect(error.message).toContain('cancel() with no arguments cancels every call');
    expect(local.stats().inflight).toBe(1);
    expect(codeOf(await finish())).toBe('OK');
  });

  it('throws INVALID_ARGUMENTS for a reason that is not a string, and cancels nothing', async () => {
    const { local, finish } = await keptRunning();
    for (const reason of [42, { text: 'x' }, null]) {
      const error = thrownBy(() => local.cancel('c-1', reason as unknown as string));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toMatch(/^the reason given to cancel\(callId, reason\) must be a string/);
    }
    expect(local.stats().inflight).toBe(1);
    expect(codeOf(await finish())).toBe('OK');
  });

  it('cuts a megabyte reason in the result and the event', async () => {
    const { local, children } = relaying();
    let eventMessage = '';
    local.on('tool_finished', (event) => {
      if (!event.ok) eventMessage = event.error?.message ?? '';
    });
    const running = local.call('p__relay', { key: 'long' }, { callId: 'long-1' });
    await waitFor(() => children.has('long'));
    expect(local.cancel('long-1', `why ${'x'.repeat(1_000_000)}`)).toBe(true);
    const result = await running;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result).length).toBeLessThan(1200);
    expect(messageOf(result)).toContain('why xxx');
    expect(eventMessage).toBe(messageOf(result));
  });

  it('cancel() with no arguments cancels every call', async () => {
    const { local, children } = relaying();
    const calls = [local.call('p__relay', { key: 'a' }), local.call('p__relay', { key: 'b' })];
    await waitFor(() => children.has('a') && children.has('b'));
    expect(local.cancel()).toBeUndefined();
    expect((await Promise.all(calls)).map(codeOf)).toEqual(['CANCELLED', 'CANCELLED']);
  });
});

describe('cancels at odd moments, and odd reasons', () => {
  it('a cancel from a tool_started listener ends that call CANCELLED before its provider runs', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const answers: boolean[] = [];
    local.on('tool_started', (event) => answers.push(local.cancel(event.callId, 'not now')));
    const result = await local.call('p__report', { key: 'never' });
    expect(codeOf(result)).toBe('CANCELLED');
    expect(messageOf(result)).toBe('the call was cancelled: not now');
    expect(answers).toEqual([true]);
    expect(children.size).toBe(0);
    expect(local.stats().inflight).toBe(0);
  });

  it('a tool that cancels its own call ends CANCELLED, and once', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    let answer: boolean | undefined;
    const finished: string[] = [];
    local.on('tool_finished', (event) => finished.push(event.ok ? 'OK' : String(event.error?.code)));
    const quitter = defineTool({
      name: 'quitter',
      description: 'Cancels its own call, then waits on a child that never answers.',
      input: z.object({}),
      sideEffect: 'none',
      execute: async (_args, ctx) => {
        const child = echoChild();
        onAbort(ctx, () => child.kill('SIGKILL'));
        answer = local.cancel(ctx.callId, 'gave up');
        await once(child, 'exit');
        return ok('not reached as a result');
      },
    });
    local.register(createLocalProvider({ namespace: 'p', tools: [quitter] }));
    const result = await local.call('p__quitter', {});
    expect(answer).toBe(true);
    expect(codeOf(result)).toBe('CANCELLED');
    expect(finished).toEqual(['CANCELLED']);
  });

  it.each<[string, string]>([
    ['empty', ''],
    ['only spaces and newlines', ' \n\t '],
  ])('a reason that is %s gives the default message, not an empty one', async (_what, reason) => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const one = local.call('p__report', { key: 'one' }, { callId: 'r-1' });
    const two = local.call('p__report', { key: 'two' });
    await waitFor(() => children.has('one') && children.has('two'));
    expect(local.cancel('r-1', reason)).toBe(true);
    expect(messageOf(await one)).toBe('the call was cancelled by orchestrator.cancel(callId)');
    local.cancelAll(reason);
    expect(messageOf(await two)).toBe('cancelled by orchestrator.cancel()');
  });

  it('cancelAll with a reason that is not a string is INVALID_ARGUMENTS and cancels nothing', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const call = local.call('p__report', { key: 'kept' });
    await waitFor(() => children.has('kept'));
    expect(() => local.cancelAll(42 as unknown as string)).toThrow(
      /the reason given to cancelAll\(reason\) must be a string or left out; got number/,
    );
    expect(local.stats().inflight).toBe(1);
    children.get('kept')?.stdin?.write('on\n');
    expect(codeOf(await call)).toBe('OK');
    children.get('kept')?.kill('SIGKILL');
  });
});
