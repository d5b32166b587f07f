import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exited,
  gatewayUrl,
  initializeBody,
  startCli,
  tempDir,
  writeJsonFile,
  GATEWAY_AUTH,
} from './helpers.js';

// The HTTP gateway answers a malformed `initialize` (the first request of a session) with
// JSON-RPC's -32600 (not a request) or -32602 (params that do not fit), naming what is wrong, with
// the request's id: "no session: send initialize first" would tell a client that sent initialize
// nothing it can act on.
let dir: { path: string; cleanup(): Promise<void> };
let gateway: ReturnType<typeof startCli>;
let url: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', { builtin: false });
  gateway = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
  url = await gatewayUrl(gateway);
});
afterAll(async () => {
  gateway.kill('SIGTERM');
  await exited(gateway);
  await dir.cleanup();
});

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...GATEWAY_AUTH,
};
const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } };

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  error?: { code: number; message: string };
}

async function post(body: unknown): Promise<{ status: number; answer: Answer }> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, answer: (await response.json()) as Answer };
}

describe('serve mcp --http given a malformed initialize before any session', () => {
  it('answers -32602 naming the params that do not fit, with the id', async () => {
    const cases: [unknown, RegExp][] = [
      [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, /params\.protocolVersion/],
      [{ jsonrpc: '2.0', id: 2, method: 'initialize' }, /params/],
      [
        { jsonrpc: '2.0', id: 3, method: 'initialize', params: { ...params, clientInfo: 'me' } },
        /params\.clientInfo/,
      ],
    ];
    const outcomes = await Promise.all(cases.map(([body]) => post(body)));
    for (const [index, { status, answer }] of outcomes.entries()) {
      expect(status).toBe(400);
      expect(answer.id).toBe(index + 1);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(/^Invalid params: /);
      expect(answer.error?.message).toMatch(cases[index]?.[1] as RegExp);
      expect(answer.error?.message).not.toContain('no session');
    }
  });

  it('answers -32600 for an initialize that is no JSON-RPC request, saying what is missing', async () => {
    const cases: [unknown, RegExp, string | number | null][] = [
      [{ id: 4, method: 'initialize', params }, /"jsonrpc": "2\.0"/, 4],
      [{ jsonrpc: '1.0', id: 5, method: 'initialize', params }, /"jsonrpc": "2\.0"/, 5],
      [{ jsonrpc: '1.0', id: 7, method: 'initialize', params: {} }, /"jsonrpc": "2\.0"/, 7],
      [{ jsonrpc: '2.0', method: 'initialize', params }, /needs an id/, null],
      [
        { jsonrpc: '2.0', id: { x: 1 }, method: 'initialize', params },
        /id must be a string or a number/,
        null,
      ],
      [[{ jsonrpc: '2.0', id: 6, method: 'initialize', params }], /alone, not in a batch/, null],
      [5, /not a JSON-RPC request/, null],
      [null, /not a JSON-RPC request/, null],
    ];
    const outcomes = await Promise.all(cases.map(([body]) => post(body)));
    for (const [index, { status, answer }] of outcomes.entries()) {
      const [, pattern, id] = cases[index] as [unknown, RegExp, string | number | null];
      expect(status).toBe(400);
      expect(answer.jsonrpc).toBe('2.0');
      expect(answer.id).toBe(id);
      expect(answer.error?.code).toBe(-32600);
      expect(answer.error?.message).toMatch(pattern);
    }
  });

  it('answers another method without a session with "no session" and its id, and serves a good initialize', async () => {
    const other = await post({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    expect(other.status).toBe(400);
    expect(other.answer.id).toBe(9);
    expect(other.answer.error?.message).toMatch(/no session: send initialize first/);
    const opened = await fetch(url, { method: 'POST', headers, body: initializeBody(10) });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('mcp-session-id')).toBeTruthy();
    expect(await opened.text()).toContain('"id":10');
  });
});
