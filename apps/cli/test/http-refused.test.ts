import { request } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpGateway, startHttpGateway } from '../src/gateway/http.js';
import { initializeBody, GATEWAY_AUTH, GATEWAY_TOKEN } from './helpers.js';

// The HTTP gateway makes an MCP server for each request that opens a session. The transport can
// still refuse that request (an Accept header without text/event-stream: 406; a body that is not
// application/json: 415; a Host that is not this gateway's: 403): the session never opens, and
// the server made for it must be closed. In `serve mcp` each such server holds a listener on the
// orchestrator's `tools_changed`, so a server kept open would leave one more behind per refused
// request for the life of the gateway. This runs the gateway in this process, on a real loopback
// port, and counts the servers it makes and closes.

let gateway: HttpGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function countingGateway(): Promise<{ gateway: HttpGateway; open: () => number; made: () => number }> {
  let made = 0;
  let closed = 0;
  const started = await startHttpGateway({
    host: '127.0.0.1',
    access: { token: GATEWAY_TOKEN, allowedOrigins: [] },
    tokenSource: 'TOOLPLANE_GATEWAY_TOKEN',
    port: 0,
    createServer: () => {
      made++;
      const server = new Server({ name: 'counted', version: '1' }, { capabilities: { tools: {} } });
      server.onclose = () => {
        closed++;
      };
      return server;
    },
  });
  gateway = started;
  return { gateway: started, open: () => made - closed, made: () => made };
}

/** One POST with exactly these headers (fetch would not send a Host of our choosing). */
function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', headers: { ...headers, ...GATEWAY_AUTH }, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const REFUSED = [
  [
    'an Accept without text/event-stream',
    { 'content-type': 'application/json', accept: 'application/json' },
    406,
  ],
  [
    'a body that is not application/json',
    { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
    415,
  ],
  [
    'a Host that is not the gateway',
    {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      host: 'rebound.example:80',
    },
    403,
  ],
] as const;

describe('serve mcp --http: an initialize the transport refuses', () => {
  it('leaves no server open, however many come', async () => {
    const { gateway, open, made } = await countingGateway();
    const rounds = 40;
    for (const [what, headers, status] of REFUSED) {
      for (let round = 0; round < rounds; round++)
        expect(await post(gateway.url, headers, initializeBody(round)), what).toBe(status);
      expect(open(), what).toBe(0);
    }
    expect(made()).toBeGreaterThanOrEqual(rounds);
    // a good initialize still opens a session, and its server stays open while it lives
    const good = await post(
      gateway.url,
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      initializeBody(),
    );
    expect(good).toBe(200);
    expect(open()).toBe(1);
    await gateway.close();
    expect(open()).toBe(0);
  });
});
