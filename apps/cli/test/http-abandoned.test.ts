import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpGateway, startHttpGateway } from '../src/gateway/http.js';
import {
  type HeldCalls,
  exited,
  gatewayUrl,
  holdCallsUntilCancelled,
  initializeBody,
  isAlive,
  startCli,
  tempDir,
  waitFor,
  writeJsonFile,
  GATEWAY_AUTH,
  GATEWAY_TOKEN,
} from './helpers.js';

/** Polls `predicate` every 5 ms for up to 10 s. */
const until = (predicate: () => boolean): Promise<boolean> => waitFor(predicate, 10_000, 5);

// A client that hangs up while its call runs: the gateway cancels the call (it tells the MCP
// server as if the client had sent notifications/cancelled). The SDK then sends no answer for
// that request, and its streamable HTTP transport keeps the request's entry (request id ->
// response stream) until an answer is sent: one entry more per abandoned call, for as long as
// the session lives. This counts that map (the transport's own bookkeeping: no public count
// exists) and the process's timers and sockets over many abandoned calls.

let gateway: HttpGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...GATEWAY_AUTH,
};

/** Entries the session's transport keeps per request (`_requestToStreamMapping`). */
function requestEntries(server: Server): number {
  const transport: unknown = server.transport;
  const inner: unknown = transport && Reflect.get(transport as object, '_webStandardTransport');
  const map: unknown = inner && Reflect.get(inner as object, '_requestToStreamMapping');
  if (!(map instanceof Map))
    throw new Error('the SDK transport has no _requestToStreamMapping: update this test');
  return map.size;
}

describe('serve mcp --http: clients that hang up while their call runs', () => {
  it('cancel each call and leave no entry or timer behind', async () => {
    const held: HeldCalls = { started: 0, cancelled: 0 };
    const servers: Server[] = [];
    gateway = await startHttpGateway({
      host: '127.0.0.1',
      access: { token: GATEWAY_TOKEN, allowedOrigins: [] },
      tokenSource: 'TOOLPLANE_GATEWAY_TOKEN',
      port: 0,
      createServer: () => {
        const server = new Server({ name: 'waits', version: '1' }, { capabilities: { tools: {} } });
        holdCallsUntilCancelled(server, held);
        servers.push(server);
        return server;
      },
    });
    const opened = await fetch(gateway.url, { method: 'POST', headers, body: initializeBody() });
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    expect(session).not.toBe('');
    const inSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const [server] = servers;
    if (!server) throw new Error('no server was made for the session');
    const resourcesBefore = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const calls = 100;
    for (let id = 1; id <= calls; id++) {
      const client = new AbortController();
      const answer = fetch(gateway.url, {
        method: 'POST',
        headers: inSession,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'w', arguments: {} },
        }),
        signal: client.signal,
      })
        .then((response) => response.body?.getReader().read())
        .catch(() => undefined);
      expect(await until(() => held.started === id)).toBe(true);
      client.abort();
      await answer;
    }
    expect(await waitFor(() => held.cancelled === calls, 10_000)).toBe(true);
    expect(await waitFor(() => requestEntries(server) === 0, 5_000)).toBe(true);
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length).toBeLessThanOrEqual(
      resourcesBefore,
    );
    // the session serves on
    const ping = await fetch(gateway.url, {
      method: 'POST',
      headers: inSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' }),
    });
    expect(ping.status).toBe(200);
    expect(await ping.text()).toContain('"id":"ping"');
  });
});

describe('an HTTP client that disconnects during a call', () => {
  it('cancels the call: the command it started is stopped', async () => {
    const work = await tempDir();
    await writeJsonFile(work.path, 'toolplane.config.json', {
      builtin: { workspace: '.', tools: 'all' },
      policy: { mode: 'bypass' },
    });
    const gateway = startCli(['serve', 'mcp', '--http', '127.0.0.1:0'], { cwd: work.path });
    try {
      const url = await gatewayUrl(gateway);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...GATEWAY_AUTH,
      };
      const init = await fetch(url, {
        method: 'POST',
        headers,
        body: initializeBody(1),
      });
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
      await init.text();
      await (
        await fetch(url, {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).text();
      const hangUp = new AbortController();
      const call = fetch(url, {
        method: 'POST',
        headers: session,
        signal: hangUp.signal,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'bash', arguments: { command: 'echo $$ > sleeper.pid; exec sleep 300' } },
        }),
      }).catch((error: unknown) => error);
      const pidFile = join(work.path, 'sleeper.pid');
      expect(
        await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 30_000),
      ).toBe(true);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(isAlive(pid)).toBe(true);
      hangUp.abort();
      await call;
      // not cancelled, the command would run on until the call's deadline (120 s by default)
      expect(await waitFor(() => !isAlive(pid), 20_000)).toBe(true);
      // the gateway serves on
      const ping = await fetch(url, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      });
      expect(await ping.text()).toContain('"id":3');
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
      await work.cleanup();
    }
  });
});
