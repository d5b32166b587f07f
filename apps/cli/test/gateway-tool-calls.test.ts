import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  exited,
  fakeToken,
  featuresServer,
  fixtureServer,
  initializeBody,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
} from './helpers.js';

// `serve mcp --stdio` runs a plain tools/call (see src/gateway/call-shapes.ts) on its fast path
// and any other valid one through the SDK server; both run the same handler. Here the same calls
// are sent both ways, line by line, to a real gateway in front of the fixture servers, and the
// answers must be the same: policy refusals, approvals refused without a client that takes
// them, scrubbed secrets, errors, structured and non-text content. Cancellation and progress
// are checked on the fast path.

type Message = Record<string, unknown> & { id?: unknown; method?: string };

let dir: { path: string; cleanup(): Promise<void> };
let gateway: ChildProcess | undefined;
let secret: string;

beforeEach(async () => {
  dir = await tempDir();
  secret = fakeToken();
  await writeJsonFile(dir.path, 'toolplane.config.json', {
    mcpServers: { fixture: fixtureServer({ FIXTURE_SECRET: secret }), feat: featuresServer() },
    policy: { autoAllow: ['feat__*'] },
  });
});
afterEach(async () => {
  if (gateway && gateway.exitCode === null && gateway.signalCode === null) gateway.kill('SIGTERM');
  if (gateway) await exited(gateway, 20_000);
  gateway = undefined;
  await dir.cleanup();
});

/** A started stdio gateway, initialized, and every message it has written. */
async function startGateway(): Promise<{ send(message: Message): void; received: Message[] }> {
  const child = startCli(['serve', 'mcp', '--stdio'], { cwd: dir.path });
  gateway = child;
  const received: Message[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) received.push(JSON.parse(line) as Message);
  });
  const send = (message: Message): void => {
    child.stdin?.write(`${JSON.stringify(message)}\n`);
  };
  child.stdin?.write(`${initializeBody('init')}\n`);
  expect(await waitFor(() => received.some((message) => message.id === 'init'), 60_000, 20)).toBe(true);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, received };
}

/** The answer to `id`, once it arrived. */
async function answerTo(received: Message[], id: string): Promise<Message> {
  expect(await waitFor(() => received.some((message) => message.id === id), 60_000, 20)).toBe(true);
  return received.find((message) => message.id === id) as Message;
}

/** An answer without what differs between two runs of one call (its id, call id and latency). */
function comparable(answer: Message): unknown {
  const { id: _id, ...rest } = answer;
  return JSON.parse(
    JSON.stringify(rest, (key, value) => (key === 'callId' || key === 'latencyMs' ? '(varies)' : value)),
  );
}

const CALLS: readonly [string, Record<string, unknown>][] = [
  ['fixture__echo', { message: 'hi' }],
  ['fixture__add', { a: 2, b: 3 }],
  ['fixture__fail', {}],
  ['fixture__leak', {}],
  ['fixture__write_note', { text: 'needs approval' }],
  ['fixture__echo', { message: 7 }],
  ['fixture__missing', {}],
  ['feat__media', {}],
];

describe('serve mcp --stdio tools/call', () => {
  it('answers a plain call and the same call the SDK path takes alike', async () => {
    const { send, received } = await startGateway();
    for (const [index, [name, args]] of CALLS.entries()) {
      // the fast path takes the first; an extra params key (valid, dropped by the SDK's
      // schema) sends the second through the SDK server
      send({ jsonrpc: '2.0', id: `fast-${index}`, method: 'tools/call', params: { name, arguments: args } });
      send({
        jsonrpc: '2.0',
        id: `sdk-${index}`,
        method: 'tools/call',
        params: { name, arguments: args, unknownKey: true },
      });
    }
    for (const index of CALLS.keys()) {
      const fast = await answerTo(received, `fast-${index}`);
      const sdk = await answerTo(received, `sdk-${index}`);
      expect(comparable(fast), JSON.stringify(CALLS[index])).toEqual(comparable(sdk));
    }
    const text = (id: string): string => JSON.stringify(received.find((message) => message.id === id));
    expect(text('fast-0')).toContain('"text":"hi"');
    expect(text('fast-3')).not.toContain(secret);
    expect(text('fast-4')).toContain('APPROVAL_REQUIRED');
    expect(text('fast-7')).toContain('"type":"image"');
  });

  it('sends no answer to a call the client cancelled, and answers the calls after it', async () => {
    const { send, received } = await startGateway();
    const sleep = (id: string, ms: number): void =>
      send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'fixture__sleep', arguments: { ms } },
      });
    sleep('cancelled', 1500);
    send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'cancelled', reason: 'the user pressed stop' },
    });
    // started after the cancelled call, so it ends after it would have
    sleep('after', 1600);
    await answerTo(received, 'after');
    expect(received.filter((message) => message.id === 'cancelled')).toEqual([]);
  });

  it('relays the progress of a call that asked for it, then its answer', async () => {
    const { send, received } = await startGateway();
    send({
      jsonrpc: '2.0',
      id: 'progress',
      method: 'tools/call',
      params: { name: 'feat__progress', arguments: {}, _meta: { progressToken: 'token-1' } },
    });
    const answer = await answerTo(received, 'progress');
    expect(JSON.stringify(answer)).toContain('progressed');
    const progress = received.filter((message) => message.method === 'notifications/progress');
    expect(progress.map((message) => (message.params as { progressToken?: unknown }).progressToken)).toEqual([
      'token-1',
      'token-1',
    ]);
    expect(progress.map((message) => (message.params as { progress?: unknown }).progress)).toEqual([1, 2]);
    // the notifications come before the answer
    expect(received.indexOf(answer)).toBeGreaterThan(received.indexOf(progress[1] as Message));
  });
});
