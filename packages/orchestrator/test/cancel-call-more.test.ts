import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ToolContext,
  type ToolResult,
  createLocalProvider,
  defineTool,
  fail,
  ok,
  onAbort,
} from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../src/index.js';
import { codeOf, messageOf } from './bad-input-helpers.js';
import { type Children, waitFor } from './helpers.js';

// Hostile inputs next to cancel(callId): cancels at odd moments, odd reasons, and what a call
// that was cancelled or has ended may still send under its id.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** A child process that echoes every line it reads, until its stdin closes or it is killed. */
function echoChild(): ChildProcess {
  return spawn(
    process.execPath,
    ['-e', "process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => process.stdout.write(d));"],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
}

/**
 * A tool whose child process reports progress, one line at a time: the first line ends the call,
 * and every line, that one and later ones, is passed on to `ctx.progress` (a tool that does not
 * stop its reporter when it returns, as a streaming provider may not).
 */
function reporter(children: Children, forwarded: string[]) {
  return defineTool({
    name: 'report',
    description: 'Reports the lines its child process prints; answers with the first.',
    input: z.object({ key: z.string() }),
    sideEffect: 'none',
    execute: ({ key }, ctx: ToolContext): Promise<ToolResult> =>
      new Promise((resolve) => {
        const child = echoChild();
        children.set(key, child);
        onAbort(ctx, () => {
          child.kill('SIGKILL');
          resolve(fail('CANCELLED', 'stopped'));
        });
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (text: string) => {
          for (const line of text.split('\n').filter(Boolean)) {
            forwarded.push(`${key}:${line}`);
            ctx.progress?.({ message: `${key}:${line}` });
            resolve(ok(`${key}:${line}`));
          }
        });
      }),
  });
}

/** Whether text has no lone surrogate (String#isWellFormed, which Node 20's TypeScript lib lacks). */
function wellFormed(text: string | undefined): boolean {
  return text !== undefined && !/\p{Surrogate}/u.test(text);
}

describe('what a call sends under its id after it has ended', () => {
  it('progress a tool reports after its call ended is dropped, not shown as progress of a later call with that id', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    const forwarded: string[] = [];
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, forwarded)] }));
    const progress: string[] = [];
    local.on('tool_progress', (event) => progress.push(`${event.callId} ${event.update.message}`));

    const first = local.call('p__report', { key: 'old' }, { callId: 'same' });
    await waitFor(() => children.has('old'));
    children.get('old')?.stdin?.write('first\n');
    expect(codeOf(await first)).toBe('OK');

    // the model resends a call with that id; the old call's child goes on printing
    const second = local.call('p__report', { key: 'new' }, { callId: 'same' });
    await waitFor(() => children.has('new'));
    children.get('old')?.stdin?.write('late\n');
    await waitFor(() => forwarded.includes('old:late'));
    children.get('new')?.stdin?.write('own\n');
    expect(codeOf(await second)).toBe('OK');

    expect(progress).toEqual(['same old:first', 'same new:own']);
    children.get('old')?.kill('SIGKILL');
    children.get('new')?.kill('SIGKILL');
  });

  it('progress after cancel(callId) is dropped too', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    const forwarded: string[] = [];
    // this tool does not kill its child on cancel: the child goes on reporting
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'Reports every line its child prints; never answers.',
      input: z.object({}),
      sideEffect: 'none',
      execute: (_args, ctx) =>
        new Promise<ToolResult>(() => {
          const child = echoChild();
          children.set('stubborn', child);
          child.stdout?.setEncoding('utf8');
          child.stdout?.on('data', (text: string) => {
            forwarded.push(text.trim());
            ctx.progress?.({ message: text.trim() });
          });
        }),
    });
    local.register(createLocalProvider({ namespace: 'p', tools: [stubborn] }));
    const progress: string[] = [];
    local.on('tool_progress', (event) => progress.push(String(event.update.message)));
    const call = local.call('p__stubborn', {}, { callId: 'st-1' });
    await waitFor(() => children.has('stubborn'));
    children.get('stubborn')?.stdin?.write('before\n');
    await waitFor(() => progress.length === 1);
    expect(local.cancel('st-1')).toBe(true);
    expect(codeOf(await call)).toBe('CANCELLED');
    children.get('stubborn')?.stdin?.write('after\n');
    await waitFor(() => forwarded.includes('after'));
    expect(progress).toEqual(['before']);
    children.get('stubborn')?.kill('SIGKILL');
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

describe('long texts cut where they are shown', () => {
  // a cut between the two halves of a surrogate pair leaves a lone surrogate, which is no text:
  // UTF-8 encoders (a log, an MCP answer) turn it into U+FFFD, and strict ones refuse it
  const emoji = '\u{1F600}';

  it('a cancel reason cut at 1000 characters keeps whole characters', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const call = local.call('p__report', { key: 'cut' }, { callId: 'cut-1' });
    await waitFor(() => children.has('cut'));
    expect(local.cancel('cut-1', `${'a'.repeat(999)}${emoji.repeat(10)}`)).toBe(true);
    const message = messageOf(await call);
    expect(wellFormed(message)).toBe(true);
    expect(message).toMatch(/a{999}\.\.\.$/);
  });

  it('a taken callId and an unknown tool name cut in their messages keep whole characters', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const children: Children = new Map();
    local.register(createLocalProvider({ namespace: 'p', tools: [reporter(children, [])] }));
    const id = `${'i'.repeat(99)}${emoji.repeat(20)}`;
    const running = local.call('p__report', { key: 'held' }, { callId: id });
    await waitFor(() => children.has('held'));
    const taken = await local.call('p__report', { key: 'second' }, { callId: id });
    expect(codeOf(taken)).toBe('INVALID_ARGUMENTS');
    expect(wellFormed(messageOf(taken))).toBe(true);
    const unknown = await local.call(`${'t'.repeat(199)}${emoji.repeat(20)}`, {});
    expect(codeOf(unknown)).toBe('TOOL_NOT_FOUND');
    expect(wellFormed(messageOf(unknown))).toBe(true);
    expect(wellFormed(unknown.meta?.tool)).toBe(true);
    expect(local.cancel(id)).toBe(true);
    expect(codeOf(await running)).toBe('CANCELLED');
  });
});
