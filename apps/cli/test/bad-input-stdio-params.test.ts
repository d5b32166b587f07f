import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exited,
  gatewayUrl,
  initializeBody,
  runCli,
  startCli,
  tempDir,
  writeJsonFile,
  GATEWAY_AUTH,
} from './helpers.js';

// A client whose requests have params that are wrong for their method gets -32602 naming the
// field in one line (not -32603 with zod's issue list as a 30-line message); a client that
// pipelines 100 calls and closes stdin at once gets every answer.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', { builtin: false });
});
afterAll(() => dir.cleanup());

interface Answer {
  id: string | number | null;
  result?: { isError?: boolean };
  error?: { code: number; message: string };
}

const line = (message: object): string => `${JSON.stringify(message)}\n`;

describe('serve mcp --stdio given params that are wrong for the method', () => {
  it('answers -32602 Invalid params naming the field, in one line, and keeps serving', async () => {
    const input = [
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 5 } }),
      line({ jsonrpc: '2.0', id: 3, method: 'tools/call' }),
      line({ jsonrpc: '2.0', id: 4, method: 'ping' }),
    ].join('');
    const outcome = await runCli(['serve', 'mcp', '--stdio'], { cwd: dir.path, input });
    expect(outcome.code).toBe(0);
    const answers = outcome.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Answer);
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    for (const id of [1, 2, 3]) {
      expect(byId.get(id)?.error?.code).toBe(-32602);
      expect(byId.get(id)?.error?.message).toMatch(/^Invalid params: /);
      expect(byId.get(id)?.error?.message).not.toContain('\n');
    }
    expect(byId.get(1)?.error?.message).toMatch(/params\.protocolVersion/);
    expect(byId.get(2)?.error?.message).toMatch(/params\.name/);
    expect(byId.get(4)?.result).toEqual({});
  });
});

describe('serve mcp --stdio with 100 pipelined calls and stdin closed right after', () => {
  it('answers every one of them, each by its id, then exits 0', async () => {
    const calls = Array.from({ length: 100 }, (_, index) =>
      line({
        jsonrpc: '2.0',
        id: index + 10,
        method: 'tools/call',
        params: { name: 'tool_output', arguments: { handle: `missing-${index}`, mode: 'lines' } },
      }),
    );
    const input = [
      initializeBody(1),
      '\n',
      line({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      ...calls,
    ].join('');
    const outcome = await runCli(['serve', 'mcp', '--stdio'], { cwd: dir.path, input });
    expect(outcome.code).toBe(0);
    const answers = outcome.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Answer);
    const ids = answers.map((answer) => answer.id).filter((id) => id !== 1);
    expect(ids.sort((left, right) => Number(left) - Number(right))).toEqual(
      Array.from({ length: 100 }, (_, index) => index + 10),
    );
    // each is the tool's own answer (an unknown handle), not a transport error
    for (const answer of answers.filter((entry) => entry.id !== 1)) expect(answer.result?.isError).toBe(true);
  });
});

describe('serve mcp --http given params that are wrong for the method', () => {
  it('answers -32602 inside a session', async () => {
    const gateway = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    try {
      const url = await gatewayUrl(gateway);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...GATEWAY_AUTH,
      };
      const opened = await fetch(url, { method: 'POST', headers, body: initializeBody(1) });
      const session = opened.headers.get('mcp-session-id') ?? '';
      await opened.text();
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } }),
      });
      const text = await response.text();
      const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
      const answer = JSON.parse(data) as Answer;
      expect(answer.id).toBe(7);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(/^Invalid params: .*params\.name/);
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
    }
  });
});
