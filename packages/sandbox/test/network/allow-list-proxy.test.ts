import { randomBytes } from 'node:crypto';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AllowListProxy, startAllowListProxy } from '../../src/network/allow-list-proxy.js';
import type { NetworkRefusal } from '../../src/network/allow-list-options.js';
import { hostAllowed } from '../../src/network/host-patterns.js';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/** Sends a CONNECT through the proxy's unix socket; resolves to the status line's code. */
function connectThrough(proxy: AllowListProxy, authority: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request({ socketPath: proxy.socketPath, method: 'CONNECT', path: authority });
    call.on('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    call.on('response', (response) => resolve(response.statusCode ?? 0));
    call.on('error', reject);
    call.end();
  });
}

/** Sends a plain proxied GET; resolves to status and body. */
function getThrough(proxy: AllowListProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request({ socketPath: proxy.socketPath, method: 'GET', path: url }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', reject);
    call.end();
  });
}

describe('network allow-list proxy', () => {
  let server: Server;
  let port: number;
  const proxies: AllowListProxy[] = [];
  const start = async (allow: string[], extra: { allowedRanges?: string[]; ports?: number[] } = {}) => {
    const refusals: NetworkRefusal[] = [];
    const proxy = await startAllowListProxy(
      join(tmpdir(), `tp-proxy-test-${randomBytes(6).toString('hex')}.sock`),
      {
        allow,
        ports: extra.ports ?? [port],
        ...(extra.allowedRanges ? { allowedRanges: extra.allowedRanges } : {}),
        onRefused: (refusal) => refusals.push(refusal),
      },
    );
    proxies.push(proxy);
    return { proxy, refusals };
  };

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('matches exact names and subdomain patterns, not the apex of a pattern', () => {
    const allow = ['registry.npmjs.org', '*.github.com'];
    expect(hostAllowed('registry.npmjs.org', allow)).toBe(true);
    expect(hostAllowed('REGISTRY.npmjs.org.', allow)).toBe(true);
    expect(hostAllowed('api.github.com', allow)).toBe(true);
    expect(hostAllowed('a.b.github.com', allow)).toBe(true);
    expect(hostAllowed('github.com', allow)).toBe(false);
    expect(hostAllowed('evilgithub.com', allow)).toBe(false);
    expect(hostAllowed('registry.npmjs.org.evil.com', allow)).toBe(false);
  });

  it('tunnels CONNECT and forwards plain HTTP to an allowed host', async () => {
    const { proxy, refusals } = await start(['localhost'], { allowedRanges: LOOPBACK });
    expect(await connectThrough(proxy, `localhost:${port}`)).toBe(200);
    expect(await getThrough(proxy, `http://localhost:${port}/x`)).toEqual({ status: 200, body: 'reached' });
    expect(refusals).toEqual([]);
  });

  it('refuses a host that is not on the list and reports it', async () => {
    const { proxy, refusals } = await start(['localhost'], { allowedRanges: LOOPBACK });
    expect(await connectThrough(proxy, `not-listed.example:${port}`)).toBe(403);
    const refused = await getThrough(proxy, `http://not-listed.example:${port}/`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('not on the sandbox network allow-list');
    expect(refusals.map((refusal) => refusal.reason)).toEqual(['not-allowed', 'not-allowed']);
    expect(proxy.refusedSince(0)).toEqual(['not-listed.example']);
  });

  it('refuses a listed name that resolves to a loopback address unless its range is allowed', async () => {
    const { proxy, refusals } = await start(['localhost']);
    expect(await connectThrough(proxy, `localhost:${port}`)).toBe(403);
    expect(refusals[0]).toMatchObject({ host: 'localhost', reason: 'address-denied' });
  });

  it('refuses private, link-local and metadata addresses given as literals', async () => {
    const { proxy, refusals } = await start(['10.0.0.1', '169.254.169.254', '192.168.1.1', '127.0.0.1'], {
      ports: [80],
    });
    for (const address of ['10.0.0.1', '169.254.169.254', '192.168.1.1', '127.0.0.1']) {
      expect(await connectThrough(proxy, `${address}:80`)).toBe(403);
    }
    expect(refusals.map((refusal) => refusal.reason)).toEqual(Array(4).fill('address-denied'));
  });

  it('refuses a listed host on a port that is not allowed', async () => {
    const { proxy, refusals } = await start(['localhost'], { allowedRanges: LOOPBACK, ports: [443] });
    expect(await connectThrough(proxy, `localhost:${port}`)).toBe(403);
    expect(refusals[0]?.reason).toBe('not-allowed');
  });
});
