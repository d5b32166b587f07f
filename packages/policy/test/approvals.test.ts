import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type ToolCall,
  type ToolResult,
  ok,
} from '@toolplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type GateEvent,
  createAllowList,
  createCallbackApprovalChannel,
  createHttpApprovalChannel,
  createPolicy,
  createTerminalApprovalChannel,
  policyMiddleware,
} from '../src/index.js';
import { bash, call, tool } from './helpers.js';

const write = tool('write', { groups: ['fs'], sideEffect: 'mutating' });

/** A provider stand-in at the end of the pipeline: counts the calls that reached it. */
function createTerminal(): { next: (call: ToolCall) => Promise<ToolResult>; reached: string[] } {
  const reached: string[] = [];
  return {
    reached,
    next: async (received) => {
      reached.push(String(received.args.command ?? received.tool.name));
      return ok('ran');
    },
  };
}

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'policy-approvals-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('policy gate middleware', () => {
  it('is a gate-phase middleware with a tool filter', () => {
    const gate = policyMiddleware(createPolicy({ profile: 'minimal' }));
    expect(gate.phase).toBe('gate');
    expect(
      gate
        .filterTools?.([write, tool('session_status', { sideEffect: 'read' })], {
          principal: {},
          session: { id: 's', depth: 0 },
        })
        .map((entry) => entry.name),
    ).toEqual(['session_status']);
  });

  it('a denied call never reaches next and returns DENIED with the reason', async () => {
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({ commands: { allow: ['echo *'] } }));
    const result = await gate.handle?.(call(bash, { command: 'echo hi; rm -rf /' }), terminal.next);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result?.ok === false && result.error.message).toContain('rm -rf');
    expect(terminal.reached).toEqual([]);
  });

  it('an allowed call reaches next', async () => {
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({ commands: { allow: ['echo *'] } }));
    const result = await gate.handle?.(call(bash, { command: 'echo hi' }), terminal.next);
    expect(result?.ok).toBe(true);
    expect(terminal.reached).toEqual(['echo hi']);
  });

  it('fails closed with APPROVAL_REQUIRED at once when no channel is connected', async () => {
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({}));
    const result = await gate.handle?.(call(bash, { command: 'make deploy' }), terminal.next);
    expect(result).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
    const message = result?.ok === false ? result.error.message : '';
    expect(message).toContain('Nobody is connected to approve');
    expect(message).toContain('"make deploy *" to commands.allow');
    expect(terminal.reached).toEqual([]);
  });

  it('uses the approvals service of the call context when the options name none', async () => {
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({}));
    const asked: ApprovalRequest[] = [];
    const base = call(write, { path: 'a.txt' });
    const withService: ToolCall = {
      ...base,
      ctx: {
        ...base.ctx,
        services: {
          approvals: createCallbackApprovalChannel((request) => {
            asked.push(request);
            return 'allow-once';
          }),
        },
      },
    };
    expect((await gate.handle?.(withService, terminal.next))?.ok).toBe(true);
    expect(asked[0]).toMatchObject({
      tool: 'write',
      risk: 'medium',
      suggestedRule: 'tool:write',
      timeoutMs: 120_000,
    });
  });

  it.each<[ApprovalDecision, boolean]>([
    ['allow-once', true],
    ['allow-always', true],
    ['deny', false],
  ])('answer %s', async (answer, runs) => {
    const terminal = createTerminal();
    const policy = createPolicy({});
    const requests: ApprovalRequest[] = [];
    const events: GateEvent[] = [];
    const gate = policyMiddleware(policy, {
      approvals: createCallbackApprovalChannel((request) => {
        requests.push(request);
        return answer;
      }),
      onDecision: (event) => events.push(event),
    });
    const first = await gate.handle?.(call(bash, { command: 'make build' }), terminal.next);
    expect(first?.ok).toBe(runs);
    if (!runs) expect(first).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(requests[0]).toMatchObject({ tool: 'bash', command: 'make build', suggestedRule: 'make build *' });
    const second = await gate.handle?.(call(bash, { command: 'make build --verbose' }), terminal.next);
    // allow-always added "make build *": the second call runs without asking.
    expect(requests).toHaveLength(answer === 'allow-always' ? 1 : 2);
    expect(second?.ok).toBe(runs);
    expect(terminal.reached).toEqual(runs ? ['make build', 'make build --verbose'] : []);
    expect(events[0]?.outcome).toBe(runs ? 'approved' : 'denied');
    expect(policy.allowList.snapshot().commands).toEqual(answer === 'allow-always' ? ['make build *'] : []);
  });

  it('times out (real timer) and denies; the channel sees its signal abort', async () => {
    const terminal = createTerminal();
    let sawAbort = false;
    const gate = policyMiddleware(createPolicy({}), {
      approvalTimeoutMs: 150,
      approvals: createCallbackApprovalChannel(
        (_request, signal) =>
          new Promise<ApprovalDecision>((resolve) => {
            signal.addEventListener('abort', () => {
              sawAbort = true;
              resolve('allow-once');
            });
          }),
      ),
    });
    const result = await gate.handle?.(call(write, { path: 'x' }), terminal.next);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
    expect(result?.ok === false && result.error.message).toContain('no approval for write within');
    expect(sawAbort).toBe(true);
    expect(terminal.reached).toEqual([]);
  });

  it('a channel that ignores its signal is not waited for', async () => {
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({}), {
      approvalTimeoutMs: 100,
      approvals: createCallbackApprovalChannel(() => new Promise<ApprovalDecision>(() => {})),
    });
    const result = await gate.handle?.(call(write), terminal.next);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
  });

  it('a failing channel or an invalid answer denies', async () => {
    const terminal = createTerminal();
    for (const channel of [
      createCallbackApprovalChannel(() => {
        throw new Error('ui crashed');
      }),
      createCallbackApprovalChannel(() => 'maybe' as ApprovalDecision),
    ]) {
      const gate = policyMiddleware(createPolicy({}), { approvals: channel });
      const result = await gate.handle?.(call(write), terminal.next);
      expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
      expect(result?.ok === false && result.error.message).toContain('approval channel failed');
    }
    expect(terminal.reached).toEqual([]);
  });

  it('caller cancellation while waiting gives CANCELLED', async () => {
    const terminal = createTerminal();
    const controller = new AbortController();
    const gate = policyMiddleware(createPolicy({}), {
      approvals: createCallbackApprovalChannel((_request, signal) => {
        setTimeout(() => controller.abort(), 20);
        return new Promise<ApprovalDecision>((resolve) =>
          signal.addEventListener('abort', () => resolve('deny')),
        );
      }),
    });
    const result = await gate.handle?.(call(write, {}, {}, controller.signal), terminal.next);
    expect(result).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });

  it('shadow mode runs everything and reports what it would have refused', async () => {
    const terminal = createTerminal();
    const events: GateEvent[] = [];
    const gate = policyMiddleware(createPolicy({ shadow: true }), {
      onDecision: (event) => events.push(event),
    });
    const denied = await gate.handle?.(call(bash, { command: 'rm -rf /tmp/x' }), terminal.next);
    const asked = await gate.handle?.(call(write), terminal.next);
    expect(denied?.ok).toBe(true);
    expect(asked?.ok).toBe(true);
    expect(events.map((event) => [event.outcome, event.decision.decision])).toEqual([
      ['shadow-allowed', 'deny'],
      ['shadow-allowed', 'ask'],
    ]);
    expect(terminal.reached).toEqual(['rm -rf /tmp/x', 'write']);
  });
});

describe('persisted allow-list', () => {
  it('allow-always answers are written to the JSON file and read back by a new policy', async () => {
    const path = join(directory, 'nested', 'allow-list.json');
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({}, { allowList: createAllowList({ path }) }), {
      approvals: createCallbackApprovalChannel(() => 'allow-always'),
    });
    await gate.handle?.(call(bash, { command: 'cargo test --all' }), terminal.next);
    await gate.handle?.(call(write), terminal.next);
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toEqual({ version: 1, tools: ['write'], commands: ['cargo test *'] });

    const fresh = createPolicy({}, { allowList: createAllowList({ path }) });
    expect((await fresh.check(call(bash, { command: 'cargo test -p x' }))).decision).toBe('allow');
    expect((await fresh.check(call(write))).decision).toBe('allow');
    // The allow-list never overrides a deny rule.
    expect((await fresh.check(call(bash, { command: 'cargo test; rm -rf /' }))).decision).toBe('deny');
  });

  it('a broken allow-list file denies with a message that says what to fix', async () => {
    const path = join(directory, 'allow-list.json');
    await writeFile(path, '{ not json');
    const policy = createPolicy({}, { allowList: createAllowList({ path }) });
    const decision = await policy.check(call(write));
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('not valid JSON');
  });
});

describe('terminal approval channel', () => {
  it('asks on the output stream and reads each answer from the input stream', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    const answers = ['huh', 'o', 'a', 'd'];
    // Answer each question as soon as it is printed, like a person at the terminal.
    output.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      printed += text;
      if (text.endsWith('? ') || text.endsWith(': ')) {
        const next = answers.shift();
        if (next !== undefined) setImmediate(() => input.write(`${next}\n`));
      }
    });
    const channel = createTerminalApprovalChannel({ input, output });
    const terminal = createTerminal();
    const gate = policyMiddleware(createPolicy({}), { approvals: channel });
    try {
      const once = await gate.handle?.(call(bash, { command: 'make one' }), terminal.next);
      const always = await gate.handle?.(call(bash, { command: 'make two' }), terminal.next);
      const denied = await gate.handle?.(call(bash, { command: 'docker run x' }), terminal.next);
      expect([once?.ok, always?.ok, denied?.ok]).toEqual([true, true, false]);
    } finally {
      channel.close();
    }
    expect(printed).toContain('Approval needed: bash');
    expect(printed).toContain('command: make one');
    expect(printed).toContain('Please answer o, a or d');
    expect(printed).toContain('"always" adds: make two *');
    expect(terminal.reached).toEqual(['make one', 'make two']);
  });

  it('shows terminal controls in the call as visible escapes, so the call cannot redraw its question', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk) => {
      printed += chunk;
      if (printed.includes('Allow [o]nce')) input.write('d\n');
    });
    const channel = createTerminalApprovalChannel({ input, output });
    const esc = String.fromCharCode(0x1b);
    const hidden = `rm -rf ~${esc}[2K${esc}[1G\nls`;
    try {
      const answer = await channel.request(
        {
          id: 'c',
          tool: `deploy${esc}[8m`,
          args: {},
          command: hidden,
          risk: 'high',
          reason: 'r',
          principal: {},
          sessionId: 's',
          timeoutMs: 5000,
        },
        new AbortController().signal,
      );
      expect(answer).toBe('deny');
    } finally {
      channel.close();
    }
    // a colour or concealing sequence (ESC [ 8 m hides what follows) is dropped
    expect(printed).toContain('Approval needed: deploy (risk high)');
    expect(printed).toContain('command: rm -rf ~\\u001b[2K\\u001b[1G\\u000als');
    expect(printed).not.toContain(esc);
  });

  it('a closed input denies', async () => {
    const input = new PassThrough();
    const channel = createTerminalApprovalChannel({ input, output: new PassThrough() });
    const answer = channel.request(
      {
        id: 'a',
        tool: 't',
        args: {},
        risk: 'high',
        reason: 'r',
        principal: {},
        sessionId: 's',
        timeoutMs: 1000,
      },
      new AbortController().signal,
    );
    input.end();
    expect(await answer).toBe('deny');
  });
});

describe('HTTP approval channel against a real loopback server', () => {
  let server: Server;
  let url: string;
  const received: ApprovalRequest[] = [];
  let reply: (request: ApprovalRequest) => { status: number; body: string; delayMs?: number } = () => ({
    status: 200,
    body: '{"decision":"allow-once"}',
  });
  beforeEach(async () => {
    received.length = 0;
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const parsed = JSON.parse(body) as ApprovalRequest;
        received.push(parsed);
        const answer = reply(parsed);
        const send = (): void => {
          if (response.destroyed) return;
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(answer.body);
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/approvals`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each<[string, () => { status: number; body: string; delayMs?: number }, string | true]>([
    ['allow-once', () => ({ status: 200, body: '{"decision":"allow-once"}' }), true],
    ['allow-always', () => ({ status: 200, body: '{"decision":"allow-always"}' }), true],
    ['deny', () => ({ status: 200, body: '{"decision":"deny"}' }), 'denied by the approver'],
    ['HTTP 500', () => ({ status: 500, body: 'oops' }), 'HTTP 500'],
    ['not JSON', () => ({ status: 200, body: 'yes' }), 'did not answer JSON'],
    ['unknown decision', () => ({ status: 200, body: '{"decision":"sure"}' }), 'expected allow-once'],
    [
      'no answer in time',
      () => ({ status: 200, body: '{"decision":"allow-once"}', delayMs: 60_000 }),
      'no approval for',
    ],
  ])('%s', async (title, answer, expected) => {
    reply = answer;
    const terminal = createTerminal();
    const timesOut = title === 'no answer in time';
    const gate = policyMiddleware(createPolicy({}), {
      approvals: createHttpApprovalChannel({ url, headers: { 'x-approval-client': 'policy-test' } }),
      // Generous where the server answers (the machine is shared); short where it never does.
      approvalTimeoutMs: timesOut ? 500 : 30_000,
    });
    const result = await gate.handle?.(
      call(bash, { command: 'terraform apply' }, { agentId: 'ops' }),
      terminal.next,
    );
    if (!timesOut) {
      expect(received[0]).toMatchObject({
        tool: 'bash',
        command: 'terraform apply',
        principal: { agentId: 'ops' },
      });
      // the time left when the question goes out: the whole timeout, less what the call took so far
      expect(received[0]?.timeoutMs).toBeGreaterThan(25_000);
      expect(received[0]?.timeoutMs).toBeLessThanOrEqual(30_000);
    }
    if (expected === true) {
      expect(result?.ok).toBe(true);
      expect(terminal.reached).toEqual(['terraform apply']);
    } else {
      expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
      expect(result?.ok === false && result.error.message).toContain(expected);
      expect(terminal.reached).toEqual([]);
    }
  });

  it('an unreachable endpoint denies', async () => {
    const gate = policyMiddleware(createPolicy({}), {
      approvals: createHttpApprovalChannel({ url: 'http://127.0.0.1:9/approvals' }),
      approvalTimeoutMs: 2_000,
    });
    const result = await gate.handle?.(call(write), createTerminal().next);
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED' } });
  });
});

describe('stores that cannot be written', () => {
  it('an approved call still runs when the allow-list file cannot be written', async () => {
    const parent = join(directory, 'sub');
    const asked: string[] = [];
    const terminal = createTerminal();
    const gate = policyMiddleware(
      createPolicy({}, { allowList: createAllowList({ path: join(parent, 'allow-list.json') }) }),
      {
        approvals: createCallbackApprovalChannel(async (request): Promise<ApprovalDecision> => {
          asked.push(request.tool);
          // A file where the directory should be: the write after the answer fails.
          await writeFile(parent, 'not a directory');
          return 'allow-always';
        }),
      },
    );
    const result = await gate.handle?.(call(write), terminal.next);
    expect(result?.ok).toBe(true);
    expect(terminal.reached).toEqual(['write']);
    expect(asked).toEqual(['write']);
  });
});
