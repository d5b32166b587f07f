import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exited, gatewayUrl, startCli, tempDir, GATEWAY_AUTH } from './helpers.js';

// A client of `serve mcp --http` that opens sessions and never ends them: the gateway keeps a
// bounded number, closing the least recently used.
let dir: { path: string; cleanup(): Promise<void> };
const started: ChildProcess[] = [];
beforeAll(async () => {
  dir = await tempDir();
});
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => dir.cleanup());

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'junk', version: '1' } },
});

const ping = (id: string): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('serve mcp --http and clients that never end their sessions', () => {
  it('keeps at most 100 sessions: the least recently used is closed and answers 404', async () => {
    const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    started.push(child);
    const url = await gatewayUrl(child, 60_000);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...GATEWAY_AUTH,
    };
    const post = async (body: string, sessionId?: string): Promise<Response> => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          ...headers,
          ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
        },
        body,
      });
      await response.text();
      return response;
    };
    const ids: string[] = [];
    for (let index = 0; index < 102; index++) {
      const response = await post(INITIALIZE);
      expect(response.status).toBe(200);
      ids.push(response.headers.get('mcp-session-id') as string);
      // the second session stays in use, so it is not the least recently used one
      if (index === 50) expect((await post(ping('keep'), ids[1])).status).toBe(200);
    }
    expect((await post(ping('first'), ids[0])).status).toBe(404);
    expect((await post(ping('third'), ids[2])).status).toBe(404);
    expect((await post(ping('second'), ids[1])).status).toBe(200);
    expect((await post(ping('newest'), ids[101])).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child, 30_000)).toBe(143);
  });
});
