import diagnostics from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import { createToolContext } from '@toolplane/core';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createRestProvider } from '../../src/index.js';
import { failure, getTool } from '../helpers/bad-input.js';
import { countedServer, eventually } from '../helpers/counted-server.js';
import { fakeSecret, oauth, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';
import { countConnectErrors, silentServer } from '../helpers/silent-server.js';

const { server, provider, defer } = useCleanups();

/** Runs `then` once a response's headers reached the client (undici's diagnostics channel). */
function onceHeadersArrive(then: () => void): void {
  const channel = diagnostics.channel('undici:request:headers');
  const listener = (): void => {
    channel.unsubscribe(listener);
    setTimeout(then, 20);
  };
  channel.subscribe(listener);
  defer(() => {
    channel.unsubscribe(listener);
  });
}

/** A redirect whose body starts and never ends; `/next` never answers. */
const drainingRedirect = (request: { url?: string }, response: import('node:http').ServerResponse) => {
  if (request.url !== '/start') return;
  response.writeHead(302, { location: '/next', 'content-length': '1000' });
  response.write('x'.repeat(10));
};

describe('cancellation at every await', () => {
  it('stops at a cancellation while a redirect body drains, without asking the next hop', async () => {
    const api = await countedServer(defer, drainingRedirect);
    const rest = provider({ go: getTool(`${api.origin}/start`, { timeoutMs: 3_000 }) });
    const controller = new AbortController();
    onceHeadersArrive(() => controller.abort());
    const result = failure(await rest.execute('go', {}, createToolContext({ signal: controller.signal })));
    expect(result.error.code).toBe('CANCELLED');
    expect(api.paths).toEqual(['/start']);
  });

  it('stops at the call timeout while a redirect body drains, without asking the next hop', async () => {
    const api = await countedServer(defer, drainingRedirect);
    const rest = provider(
      { go: getTool(`${api.origin}/start`, { timeoutMs: 300 }) },
      { headersTimeoutMs: 3_000 },
    );
    const result = failure(await rest.execute('go', {}, createToolContext()));
    expect(result.error.code).toBe('TIMEOUT');
    expect(api.paths).toEqual(['/start']);
  });
});

describe('close while calls run', () => {
  it('ends calls in flight through an application dispatcher', async () => {
    const dispatcher = new Agent();
    defer(() => dispatcher.destroy());
    const api = await countedServer(defer, () => undefined);
    const rest = provider({ hang: getTool(`${api.origin}/hang`, { timeoutMs: 5_000 }) }, { dispatcher });
    const call = rest.execute('hang', {}, createToolContext());
    expect(await eventually(() => api.paths.length === 1)).toBe(true);
    await rest.close();
    const result = failure(await call);
    expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(await eventually(async () => (await api.connections()) === 0)).toBe(true);
  });
});

describe('connections after aborted calls', () => {
  it('closes the connections of calls aborted waiting for headers or reading a body', async () => {
    const api = await countedServer(defer, (request, response) => {
      if (request.url === '/body') {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        response.write('partial');
      }
    });
    const rest = provider({ headers: getTool(`${api.origin}/headers`), body: getTool(`${api.origin}/body`) });
    const controller = new AbortController();
    const ctx = createToolContext({ signal: controller.signal });
    const calls = [
      ...Array.from({ length: 3 }, () => rest.execute('headers', {}, ctx)),
      ...Array.from({ length: 3 }, () => rest.execute('body', {}, ctx)),
    ];
    expect(await eventually(() => api.paths.length === 6)).toBe(true);
    expect(await api.connections()).toBe(6);
    controller.abort();
    for (const result of await Promise.all(calls)) expect(failure(result).error.code).toBe('CANCELLED');
    expect(await eventually(async () => (await api.connections()) === 0)).toBe(true);
  });
});

describe('calls that undici has not sent yet', () => {
  it('settles a call cancelled in its TLS handshake without waiting for the connect timeout', async () => {
    const silent = await silentServer(defer);
    const rest = provider(
      { get: getTool(`https://127.0.0.1:${silent.port}/x`) },
      { connectTimeoutMs: 20_000 },
    );
    const controller = new AbortController();
    const connectErrors = countConnectErrors(defer, silent.port);
    const call = rest.execute('get', {}, createToolContext({ signal: controller.signal }));
    expect(await eventually(() => silent.open.size === 1)).toBe(true);
    controller.abort();
    expect(failure(await call).error.code).toBe('CANCELLED');
    // settled while the handshake still hangs, not at the connect timeout
    expect(connectErrors()).toBe(0);
  }, 30_000);

  it('settles a cancelled call waiting for a pool slot while the slot stays taken', async () => {
    const api = await countedServer(defer, (request, response) => {
      if (request.url === '/quick') sendJson(response, 200, { ok: true });
    });
    const rest = provider(
      { hang: getTool(`${api.origin}/hang`, { timeoutMs: 20_000 }), quick: getTool(`${api.origin}/quick`) },
      { connections: 1 },
    );
    let hangSettled = false;
    const hanging = rest.execute('hang', {}, createToolContext()).then((result) => {
      hangSettled = true;
      return result;
    });
    expect(await eventually(() => api.paths.length === 1)).toBe(true);
    const controller = new AbortController();
    const queued = rest.execute('quick', {}, createToolContext({ signal: controller.signal }));
    controller.abort();
    expect(failure(await queued).error.code).toBe('CANCELLED');
    expect(hangSettled).toBe(false);
    await rest.close();
    expect(failure(await hanging).error.code).toBe('PROVIDER_UNAVAILABLE');
    // the queued request was never sent
    expect(api.paths).toEqual(['/hang']);
  }, 30_000);

  it('ends a call waiting for an OAuth2 token in its TLS handshake when the provider closes, through an application dispatcher', async () => {
    const dispatcher = new Agent({ connectTimeout: 20_000 });
    defer(() => dispatcher.destroy());
    const silent = await silentServer(defer);
    const api = await countedServer(defer, (_request, response) => sendJson(response, 200, {}));
    const rest = provider(
      { me: getTool(`${api.origin}/me`, { auth: oauth(`https://127.0.0.1:${silent.port}/token`) }) },
      { dispatcher },
    );
    const connectErrors = countConnectErrors(defer, silent.port);
    const call = rest.execute('me', {}, createToolContext());
    expect(await eventually(() => silent.open.size === 1)).toBe(true);
    await rest.close();
    const result = failure(await call);
    expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(result.error.message).toContain('closed');
    expect(connectErrors()).toBe(0);
    expect(api.paths).toEqual([]);
  }, 30_000);
});

describe('close while a connection is being made', () => {
  it('ends the TLS handshake of a call in flight instead of leaving it to the connect timeout', async () => {
    const silent = await silentServer(defer);
    const before = process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length;
    const rest = provider(
      { get: getTool(`https://127.0.0.1:${silent.port}/x`) },
      { connectTimeoutMs: 20_000 },
    );
    const call = rest.execute('get', {}, createToolContext());
    expect(await eventually(() => silent.open.size === 1)).toBe(true);
    await rest.close();
    expect(failure(await call).error.code).toBe('PROVIDER_UNAVAILABLE');
    // the server sees the connection go (not at the connect timeout), and this process holds
    // no more sockets than before (earlier tests' may have ended meanwhile)
    expect(await eventually(() => silent.open.size === 0, 300)).toBe(true);
    const sockets = process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length;
    expect(sockets).toBeLessThanOrEqual(before);
  }, 30_000);
});

describe('one long-lived signal', () => {
  it('does not collect listeners over 10,000 calls, with and without OAuth2', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    defer(() => {
      process.off('warning', onWarning);
    });
    const token = fakeSecret('tok');
    const api = await countedServer(defer, (request, response) => {
      if (request.url === '/token') sendJson(response, 200, { access_token: token, token_type: 'Bearer' });
      else sendJson(response, 200, { ok: true });
    });
    const rest = provider({
      plain: getTool(`${api.origin}/plain`),
      authed: getTool(`${api.origin}/authed`, { auth: oauth(`${api.origin}/token`) }),
    });
    const session = new AbortController();
    const ctx = createToolContext({ signal: session.signal });
    // the first calls may leave the one listener core shares between every call on a signal
    for (const name of ['plain', 'authed']) expect((await rest.execute(name, {}, ctx)).ok).toBe(true);
    const before = getEventListeners(session.signal, 'abort').length;
    expect(before).toBeLessThanOrEqual(1);
    for (let batch = 0; batch < 500; batch++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => rest.execute(index % 2 ? 'plain' : 'authed', {}, ctx)),
      );
      for (const result of results) expect(result.ok).toBe(true);
    }
    expect(getEventListeners(session.signal, 'abort').length).toBe(before);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    expect(api.paths.filter((path) => path === '/token')).toHaveLength(1);
  }, 120_000);
});

describe('close while calls wait for an answer', () => {
  it('ends calls in flight when the provider closes with PROVIDER_UNAVAILABLE saying so', async () => {
    let arrived = 0;
    const api = await server(() => {
      arrived++; // never answers
    });
    const rest = createRestProvider({
      namespace: 'test',
      tools: { slow: getTool(`${api.origin}/slow`) },
      env: {},
    });
    const calls = Array.from({ length: 4 }, () => rest.execute('slow', {}, createToolContext()));
    for (let wait = 0; wait < 200 && arrived < 4; wait++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    await Promise.all([rest.close(), rest.close()]);
    for (const result of await Promise.all(calls)) {
      // not EXECUTION_FAILED "The client is destroyed"
      expect(failure(result).error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(failure(result).error.message).toContain('its provider was closed while it ran');
    }
    const after = failure(await rest.execute('slow', {}, createToolContext()));
    expect(after.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(after.error.message).toContain('is closed');
  });
});
