import { getEventListeners } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { type ApprovalRequest, type ToolCall, type ToolResult, ok } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import {
  createCallbackApprovalChannel,
  createHttpApprovalChannel,
  createPolicy,
  createTerminalApprovalChannel,
  policyMiddleware,
} from '../src/index.js';
import { bash, call } from './helpers.js';

// An approval is awaited at several points: queued behind another question, while asked, while
// another call asks the same thing. Each must settle when its call is cancelled or the channel is
// closed, and leave no listener, timer or queued entry behind.

function request(id: string, timeoutMs = 60_000): ApprovalRequest {
  return { id, tool: 'bash', args: {}, risk: 'high', reason: 'r', principal: {}, sessionId: 's', timeoutMs };
}

/** Lets pending callbacks run: a bounded number of event-loop turns, no clock. */
async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise settled, and how. */
function track<T>(promise: Promise<T>): { settled: () => boolean; result: Promise<T | Error> } {
  let done = false;
  const result = promise.then(
    (value) => {
      done = true;
      return value;
    },
    (error: Error) => {
      done = true;
      return error;
    },
  );
  return { settled: () => done, result };
}

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('terminal approval channel: queued, cancelled, closed', () => {
  it('drops a request cancelled while it waits behind another question: it settles at once and is never printed', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const channel = createTerminalApprovalChannel({ input, output });
    const session = new AbortController();
    try {
      const first = track(channel.request(request('first'), session.signal));
      const queued = Array.from({ length: 50 }, (_, i) => {
        const controller = new AbortController();
        return { controller, answer: track(channel.request(request(`queued-${i}`), controller.signal)) };
      });
      await turns();
      expect(printed.match(/Approval needed/g)).toHaveLength(1);
      for (const entry of queued) entry.controller.abort(new Error('call cancelled'));
      await turns();
      expect(queued.every((entry) => entry.answer.settled())).toBe(true);
      expect(first.settled()).toBe(false);
      input.write('o\n');
      expect(await first.result).toBe('allow-once');
      await turns();
      expect(printed.match(/Approval needed/g)).toHaveLength(1);
      expect(printed).not.toContain('no answer in time');
      expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    } finally {
      channel.close();
    }
  });

  it('close() settles the question asked and those queued with a clear error, releases the input, and refuses later requests', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const listenersBefore = input.listenerCount('data') + input.listenerCount('end');
    const channel = createTerminalApprovalChannel({ input, output });
    const signal = new AbortController().signal;
    const asked = track(channel.request(request('asked'), signal));
    const queued = track(channel.request(request('queued'), signal));
    await turns();
    channel.close();
    await turns();
    expect(asked.settled() && queued.settled()).toBe(true);
    for (const outcome of [await asked.result, await queued.result]) {
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error & { code?: string }).code).toBe('APPROVAL_REQUIRED');
      expect((outcome as Error).message).toMatch(/closed/);
    }
    expect(input.listenerCount('data') + input.listenerCount('end')).toBe(listenersBefore);
    const later = await track(channel.request(request('later'), signal)).result;
    expect((later as Error).message).toMatch(/closed/);
    expect(input.listenerCount('data') + input.listenerCount('end')).toBe(listenersBefore);
    channel.close(); // a second close is harmless
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('a call through the gate on a closed terminal channel is denied saying the channel is closed', async () => {
    const channel = createTerminalApprovalChannel({ input: new PassThrough(), output: new PassThrough() });
    channel.close();
    const gate = policyMiddleware(createPolicy({}), { approvals: channel, approvalTimeoutMs: 5_000 });
    const result = await gate.handle?.(call(bash, { command: 'make build' }), async () => ok('ran'));
    expect(result?.ok).toBe(false);
    if (result && !result.ok) expect(result.error.message).toMatch(/closed/);
  });
});

describe('the gate: many calls on one signal, and the same question asked by parallel calls', () => {
  it('10,000 approvals on one long-lived signal (answered, timed out, cancelled) leave no listener or timer', async () => {
    const session = new AbortController();
    let asked = 0;
    const channel = createCallbackApprovalChannel(async (_request, signal) => {
      asked++;
      if (asked % 3 === 0)
        return new Promise<'deny'>((resolve) =>
          signal.addEventListener('abort', () => resolve('deny'), { once: true }),
        );
      return 'allow-once';
    });
    const gate = policyMiddleware(createPolicy({}), { approvals: channel, approvalTimeoutMs: 1 });
    const timersBefore = timers();
    const codes = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const result = await gate.handle?.(
        call(bash, { command: `make target${i}` }, {}, session.signal),
        async () => ok('ran'),
      );
      const code = result?.ok ? 'ok' : (result?.error.code ?? 'none');
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect(codes.get('ok')).toBeGreaterThan(0);
    expect(codes.get('DENIED')).toBeGreaterThan(0);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('parallel calls that ask the same question ask the person once; allow-always lets them all run', async () => {
    const requests: string[] = [];
    const channel = createCallbackApprovalChannel(async (request) => {
      requests.push(request.command ?? request.tool);
      await turns(5);
      return 'allow-always' as const;
    });
    const policy = createPolicy({});
    const gate = policyMiddleware(policy, { approvals: channel });
    const reached: string[] = [];
    const next = async (received: ToolCall): Promise<ToolResult> => {
      reached.push(String(received.args.command));
      return ok('ran');
    };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => gate.handle?.(call(bash, { command: 'make build' }), next)),
    );
    expect(results.map((result) => result?.ok)).toEqual(Array(8).fill(true));
    expect(requests).toEqual(['make build']);
    expect(reached).toHaveLength(8);
    expect(policy.allowList.snapshot().commands).toEqual(['make build *']);
  });

  it('a failing question does not fail the calls waiting on it: they ask on their own', async () => {
    let asked = 0;
    const channel = createCallbackApprovalChannel(async () => {
      const mine = ++asked;
      await turns(3);
      if (mine === 1) throw new Error('the approval UI crashed');
      return 'allow-once' as const;
    });
    const gate = policyMiddleware(createPolicy({}), { approvals: channel });
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        gate.handle?.(call(bash, { command: 'make build' }), async () => ok('ran')),
      ),
    );
    const failed = results.filter((result) => result && !result.ok);
    expect(failed).toHaveLength(1);
    if (failed[0] && !failed[0].ok) expect(failed[0].error.message).toContain('the approval UI crashed');
    expect(results.filter((result) => result?.ok)).toHaveLength(3);
    expect(asked).toBe(4);
  });

  it('a call cancelled while it waits on the same question asked by another settles CANCELLED at once', async () => {
    let answer: (decision: 'allow-always') => void = () => {};
    const channel = createCallbackApprovalChannel(
      () =>
        new Promise<'allow-always'>((resolve) => {
          answer = resolve;
        }),
    );
    const gate = policyMiddleware(createPolicy({}), { approvals: channel });
    const leader = track(
      gate.handle?.(call(bash, { command: 'make build' }), async () => ok('ran')) as Promise<ToolResult>,
    );
    await turns();
    const controller = new AbortController();
    const waiter = track(
      gate.handle?.(call(bash, { command: 'make build' }, {}, controller.signal), async () =>
        ok('ran'),
      ) as Promise<ToolResult>,
    );
    await turns();
    controller.abort(new Error('stop'));
    await turns();
    expect(waiter.settled()).toBe(true);
    const cancelled = (await waiter.result) as ToolResult;
    expect(cancelled.ok ? 'ok' : cancelled.error.code).toBe('CANCELLED');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(leader.settled()).toBe(false);
    answer('allow-always');
    const led = (await leader.result) as ToolResult;
    expect(led.ok).toBe(true);
  });
});

describe('HTTP approval channel: an answer that never ends', () => {
  it('reads at most 64 KB of an answer body, stops the endpoint sending, and denies saying why', async () => {
    let sent = 0;
    let stoppedSending = false;
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = `{"decision":"allow-once","pad":"${'x'.repeat(16_384)}`;
      // Writes as fast as the client reads, for as long as the connection lasts (bounded by 64 MB).
      const pump = (): void => {
        while (!response.destroyed && sent < 64 << 20) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
      };
      response.on('close', () => {
        stoppedSending = true;
      });
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/approvals`;
      const gate = policyMiddleware(createPolicy({}), {
        approvals: createHttpApprovalChannel({ url }),
        approvalTimeoutMs: 30_000,
      });
      const result = await gate.handle?.(call(bash, { command: 'make build' }), async () => ok('ran'));
      expect(result?.ok).toBe(false);
      if (result && !result.ok) expect(result.error.message).toMatch(/64 KB/);
      for (let i = 0; i < 200 && !stoppedSending; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(stoppedSending).toBe(true);
      expect(sent).toBeLessThan(64 << 20);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
