import { execFileSync } from 'node:child_process';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { Agent, buildConnector } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../src/index.js';
import { fakeSecret, oauth, objectSchema, useCleanups } from './helpers/fixtures.js';
import { type Loopback, echo, sendJson } from './helpers/loopback.js';

const { server, provider, defer } = useCleanups();

const PUBLIC = '93.184.215.14';

/**
 * A resolver that answers differently on each lookup, as a rebinding DNS server does: a public
 * address while it is being checked, then this machine.
 */
function rebindingResolver(publicAnswers: number) {
  let calls = 0;
  const lookup = (
    _hostname: string,
    options: LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    calls++;
    const address = calls <= publicAnswers ? PUBLIC : '127.0.0.1';
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  };
  return { lookup, calls: () => calls };
}

/**
 * The application's dispatcher: it resolves names with the same DNS server, and its network
 * routes the public address to `outside` (a loopback server standing in for the public host).
 */
function applicationAgent(
  resolver: ReturnType<typeof rebindingResolver>['lookup'],
  outside: Loopback,
): Agent {
  const base = buildConnector({ lookup: resolver as never });
  const outsidePort = new URL(outside.origin).port;
  const agent = new Agent({
    connect: (options, callback) =>
      base(
        options.hostname === PUBLIC ? { ...options, hostname: '127.0.0.1', port: outsidePort } : options,
        callback,
      ),
  });
  defer(() => agent.destroy());
  return agent;
}

describe("an application's dispatcher and a resolver that changes its answer (DNS rebinding)", () => {
  it('sends the request to the address that was checked, never to the one a second lookup gives', async () => {
    const outside = await server();
    const inside = await server(); // what the rebinding points at: must never be reached
    const port = new URL(inside.origin).port;
    const resolver = rebindingResolver(1);
    const tool: RestToolConfig = {
      description: 'Gets a thing.',
      method: 'GET',
      url: `http://rebind.example.net:${port}/a`,
      parametersSchema: objectSchema({}),
      publicAddressesOnly: true,
    };
    const rest = provider(
      { a: tool },
      { dispatcher: applicationAgent(resolver.lookup, outside), lookup: resolver.lookup },
    );
    const result = await rest.execute('a', {}, createToolContext());
    expect(result.ok).toBe(true);
    // the check resolved the name once; the dispatcher used to resolve it again and reach inside
    expect(inside.requests).toHaveLength(0);
    expect(resolver.calls()).toBe(1);
    expect(outside.requests[0]?.headers.host).toBe(`rebind.example.net:${port}`);
    expect(outside.requests[0]?.url).toBe('/a');
  });

  it('pins the OAuth2 token request the same way, so the client secret never goes inside', async () => {
    const secret = fakeSecret('secret');
    const outside = await server((request, response) => {
      if (request.url === '/token')
        return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer' });
      return echo(request, response);
    });
    const inside = await server();
    const port = new URL(inside.origin).port;
    const resolver = rebindingResolver(2); // the token endpoint's check and the API's
    const tool: RestToolConfig = {
      description: 'Gets a thing.',
      method: 'GET',
      url: `http://rebind.example.net:${port}/a`,
      parametersSchema: objectSchema({}),
      publicAddressesOnly: true,
      auth: oauth(`http://rebind.example.net:${port}/token`, secret),
    };
    const rest = provider(
      { a: tool },
      { dispatcher: applicationAgent(resolver.lookup, outside), lookup: resolver.lookup },
    );
    const result = await rest.execute('a', {}, createToolContext());
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(inside.requests).toHaveLength(0);
    expect(resolver.calls()).toBe(2);
    expect(outside.requests.map((request) => request.url)).toEqual(['/token', '/a']);
    expect(outside.requests[1]?.headers.authorization).toBe('Bearer tok');
  });

  it('keeps TLS checked for the name: the server name is sent and the certificate must match it', async (context) => {
    // a self-signed certificate for rebind.example.net, made now
    const folder = mkdtempSync(join(tmpdir(), 'rebind-tls-'));
    defer(() => rmSync(folder, { recursive: true, force: true }));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-keyout',
          join(folder, 'key.pem'),
          '-out',
          join(folder, 'cert.pem'),
          '-subj',
          '/CN=rebind.example.net',
          '-addext',
          'subjectAltName=DNS:rebind.example.net',
        ],
        { stdio: 'ignore' },
      );
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      context.skip('openssl is not installed, so no certificate can be made for this test');
    }
    const cert = readFileSync(join(folder, 'cert.pem'));
    const tls = createServer({ cert, key: readFileSync(join(folder, 'key.pem')) }, (request, response) => {
      const servername = (request.socket as { servername?: unknown }).servername;
      sendJson(response, 200, { host: request.headers.host, servername });
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    defer(() => new Promise<void>((resolve) => tls.close(() => resolve())));
    tls.on('connection', (socket) => defer(() => void socket.destroy()));
    const port = (tls.address() as AddressInfo).port;
    const resolver = rebindingResolver(10);
    const base = buildConnector({ ca: cert } as buildConnector.BuildOptions);
    const agent = new Agent({
      connect: (options, callback) =>
        base(options.hostname === PUBLIC ? { ...options, hostname: '127.0.0.1' } : options, callback),
    });
    defer(() => agent.destroy());
    const rest = provider(
      {
        right: {
          description: 'Gets.',
          method: 'GET',
          url: `https://rebind.example.net:${port}/a`,
          parametersSchema: objectSchema({}),
          publicAddressesOnly: true,
        },
        wrong: {
          description: 'Gets.',
          method: 'GET',
          url: `https://other.example.net:${port}/a`,
          parametersSchema: objectSchema({}),
          publicAddressesOnly: true,
        },
      },
      { dispatcher: agent, lookup: resolver.lookup },
    );
    const right = await rest.execute('right', {}, createToolContext());
    expect(right.ok && right.structured).toEqual({
      host: `rebind.example.net:${port}`,
      servername: 'rebind.example.net',
    });
    const wrong = await rest.execute('wrong', {}, createToolContext());
    expect(wrong.ok).toBe(false);
    expect(JSON.stringify(wrong)).toContain("does not match certificate's altnames");
  });
});
