import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAddressPolicy,
  createGuardedLookup,
  findAddressDenied,
  guardConnector,
  isPublicAddress,
  pinnedDispatch,
} from '../src/index.js';

let server: Server;
let port: number;
let connections: number;
const agents: Agent[] = [];

beforeEach(async () => {
  connections = 0;
  server = createServer((req, res) => res.end(`host=${req.headers.host}`));
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  server.close();
  await once(server, 'close');
});

function guardedAgent(
  policy = isPublicAddress,
  base = buildConnector({ lookup: createGuardedLookup(policy) }),
) {
  const agent = new Agent({ connect: guardConnector(base, policy) });
  agents.push(agent);
  return agent;
}

describe('guardConnector', () => {
  it('refuses an IP-literal host before any connection is made', async () => {
    const error = await request(`http://127.0.0.1:${port}/`, { dispatcher: guardedAgent() }).catch(
      (e: unknown) => e,
    );
    expect(findAddressDenied(error)).toMatchObject({ host: '127.0.0.1', range: 'loopback' });
    expect(connections).toBe(0);
  });

  it('refuses a name that resolves inward, through the guarded lookup', async () => {
    const error = await request(`http://localhost:${port}/`, { dispatcher: guardedAgent() }).catch(
      (e: unknown) => e,
    );
    expect(findAddressDenied(error)).toMatchObject({ host: 'localhost', range: 'loopback' });
    expect(connections).toBe(0);
  });

  it('destroys a socket whose remote address is refused, whatever resolved it', async () => {
    // A connector that resolves on its own (no guarded lookup) reaches loopback; the guard
    // still sees the connected socket's remote address and closes it.
    const error = await request(`http://localhost:${port}/`, {
      dispatcher: guardedAgent(isPublicAddress, buildConnector({})),
    }).catch((e: unknown) => e);
    expect(findAddressDenied(error)).toMatchObject({ address: '127.0.0.1', range: 'loopback' });
  });

  it('lets a connection through to a range the policy opens', async () => {
    const policy = createAddressPolicy({ allowedRanges: ['127.0.0.0/8'] });
    const response = await request(`http://127.0.0.1:${port}/`, { dispatcher: guardedAgent(policy) });
    expect(await response.body.text()).toBe(`host=127.0.0.1:${port}`);
  });
});

describe('pinnedDispatch', () => {
  it('sends the request to the checked address with the name kept in Host', async () => {
    const policy = createAddressPolicy({ allowedRanges: ['127.0.0.0/8'] });
    const pinned = pinnedDispatch(`http://service.test:${port}`, '127.0.0.1', {});
    expect(pinned).toEqual({ origin: `http://127.0.0.1:${port}`, headers: { host: `service.test:${port}` } });
    const response = await request(`${pinned.origin}/`, {
      headers: pinned.headers,
      dispatcher: guardedAgent(policy),
    });
    expect(await response.body.text()).toBe(`host=service.test:${port}`);
  });

  it('keeps a Host the caller set, names the TLS server for https and leaves address origins alone', () => {
    expect(pinnedDispatch('https://api.example.com', '2606:4700::1', { Host: 'other' })).toEqual({
      origin: 'https://[2606:4700::1]',
      headers: { Host: 'other' },
      servername: 'api.example.com',
    });
    expect(pinnedDispatch('http://10.0.0.1:81', '10.0.0.1', {})).toEqual({
      origin: 'http://10.0.0.1:81',
      headers: {},
    });
  });
});
