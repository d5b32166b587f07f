import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exited,
  gatewayUrl,
  initializeBody,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
  GATEWAY_AUTH,
} from './helpers.js';

// A client of `serve mcp --http` that sends more than the gateway reads, or a body that is not
// JSON, or names the machine's own address as Host.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  await writeJsonFile(dir.path, 'toolplane.config.json', { builtin: { workspace: '.', tools: ['read'] } });
});
afterAll(() => dir.cleanup());

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...GATEWAY_AUTH,
};
const ping = (id: number, extra = ''): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: { padding: extra } } });

describe('a request body over 4 MiB', () => {
  it('is answered 413 with a JSON-RPC error, and the client keeps working', async () => {
    const gateway = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    try {
      const url = await gatewayUrl(gateway);
      const tooLarge = 'a'.repeat(5 * 1024 * 1024);
      // before a session (an initialize that large) and inside one
      const early = await fetch(url, { method: 'POST', headers: HEADERS, body: ping(1, tooLarge) });
      expect(early.status).toBe(413);
      expect(((await early.json()) as { error: { message: string } }).error.message).toContain('4 MiB');
      const init = await fetch(url, {
        method: 'POST',
        headers: HEADERS,
        body: initializeBody(2),
      });
      const session = { ...HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
      await init.text();
      const large = await fetch(url, { method: 'POST', headers: session, body: ping(3, tooLarge) });
      expect(large.status).toBe(413);
      const answer = (await large.json()) as { error: { code: number; message: string } };
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.message).toContain('send smaller requests');
      // the connection stays usable: the client's next requests are answered, not "fetch failed"
      for (const id of [4, 5, 6]) {
        const next = await fetch(url, { method: 'POST', headers: session, body: ping(id) });
        expect(await next.text()).toContain(`"id":${id}`);
      }
      // just under the limit is read
      const fits = await fetch(url, {
        method: 'POST',
        headers: session,
        body: ping(7, 'b'.repeat(3 * 1024 * 1024)),
      });
      expect(await fits.text()).toContain('"id":7');
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
    }
  });
});

describe('--http on every interface (0.0.0.0)', () => {
  it('accepts a client that names one of the machine addresses as Host, and refuses another name', async () => {
    const { networkInterfaces } = await import('node:os');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
    if (external === undefined) {
      if (process.env.CI === 'true') throw new Error('no non-loopback IPv4 address to test with');
      console.warn('skipped: this machine has no non-loopback IPv4 address');
      return;
    }
    const gateway = startCli(['serve', 'mcp', '--http', '0.0.0.0:0'], { cwd: dir.path });
    try {
      let stderr = '';
      gateway.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const printed = /serving \d+ tools at http:\/\/127\.0\.0\.1:(\d+)\/mcp/;
      expect(await waitFor(() => printed.test(stderr), 30_000)).toBe(true);
      const port = printed.exec(stderr)?.[1];
      const initialize = initializeBody(1);
      // a machine address is accepted as Host, besides 0.0.0.0 and loopback names
      const direct = await fetch(`http://${external}:${port}/mcp`, {
        method: 'POST',
        headers: HEADERS,
        body: initialize,
      });
      expect(direct.status).toBe(200);
      expect(await direct.text()).toContain('"serverInfo"');
      // a page on another name that resolves here (DNS rebinding) is refused
      const { request } = await import('node:http');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const sent = request(
          `http://${external}:${port}/mcp`,
          { method: 'POST', headers: { ...HEADERS, host: `attacker.example:${port}` } },
          (response) => {
            response.resume();
            resolve(response.statusCode);
          },
        );
        sent.on('error', reject);
        sent.end(initialize);
      });
      expect(status).toBe(403);
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
    }
  });
});

describe('a request body that is not JSON', () => {
  it('answers a body that is not JSON with a JSON-RPC parse error, and keeps serving', async () => {
    const child = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: dir.path });
    try {
      const url = await gatewayUrl(child, 60_000);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...GATEWAY_AUTH,
      };
      for (const body of ['garbage{', '', Buffer.from([0xff, 0xfe, 0x7b])]) {
        const response = await fetch(url, { method: 'POST', headers, body });
        expect(response.status).toBe(400);
        const answer = (await response.json()) as { error: { code: number; message: string } };
        expect(answer.error.code).toBe(-32700);
        expect(answer.error.message).toMatch(/^Parse error: /);
      }
      // a proper initialize still works afterwards
      const initialize = await fetch(url, {
        method: 'POST',
        headers,
        body: initializeBody(1),
      });
      expect(initialize.status).toBe(200);
      await initialize.body?.cancel();
      child.kill('SIGTERM');
      expect(await exited(child, 60_000)).toBe(143);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
