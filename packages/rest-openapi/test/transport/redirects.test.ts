import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../../src/index.js';
import { failure, getTool } from '../helpers/bad-input.js';
import { fakeSecret, objectSchema, useCleanups } from '../helpers/fixtures.js';
import { echo } from '../helpers/loopback.js';

const { server, provider } = useCleanups();
const noArgs = objectSchema({});

describe('redirects', () => {
  it('follows redirects on the configured host, and turns 303 into GET', async () => {
    const api = await server((request, response) => {
      if (request.url === '/old') {
        response.writeHead(301, { location: '/new?x=1' });
        return response.end();
      }
      if (request.url === '/submit') {
        response.writeHead(303, { location: '/result' });
        return response.end();
      }
      echo(request, response);
    });
    const rest = provider({
      old: { description: 'd', method: 'GET', url: `${api.origin}/old`, parametersSchema: noArgs },
      submit: {
        description: 'd',
        method: 'POST',
        url: `${api.origin}/submit`,
        parametersSchema: objectSchema({ a: { type: 'string' } }),
      },
    });
    const old = await rest.execute('old', {}, createToolContext());
    expect(old.ok && old.structured).toMatchObject({ method: 'GET', url: '/new?x=1' });
    const submit = await rest.execute('submit', { a: 'b' }, createToolContext());
    expect(submit.ok && submit.structured).toMatchObject({ method: 'GET', url: '/result', body: '' });
  });

  it('refuses redirects to hosts the tool is not configured for, and sends them nothing', async () => {
    const evil = await server();
    const api = await server((_request, response) => {
      response.writeHead(302, { location: `${evil.origin}/steal` });
      response.end();
    });
    const token = fakeSecret('tok');
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/x`,
          auth: { type: 'bearer', token: '${TOKEN}' },
          parametersSchema: noArgs,
        },
      },
      { env: { TOKEN: token } },
    );
    const result = await rest.execute('get', {}, createToolContext());
    expect(result.ok === false && result.error.code).toBe('DENIED');
    expect(result.ok === false && result.error.message).toContain('allowedRedirectHosts');
    expect(evil.requests).toHaveLength(0);
  });

  it('follows redirects to allowed hosts without the credentials', async () => {
    const other = await server();
    const api = await server((_request, response) => {
      response.writeHead(307, { location: `${other.origin}/moved` });
      response.end();
    });
    const token = fakeSecret('tok');
    const rest = provider(
      {
        put: {
          description: 'd',
          method: 'PUT',
          url: `${api.origin}/x`,
          auth: [
            { type: 'bearer', token: '${TOKEN}' },
            { type: 'apiKey', in: 'header', name: 'X-Api-Key', value: '${TOKEN}' },
          ],
          allowedRedirectHosts: ['127.0.0.1'],
          parametersSchema: objectSchema({ v: { type: 'integer' } }),
        },
      },
      { env: { TOKEN: token } },
    );
    const result = await rest.execute('put', { v: 1 }, createToolContext());
    expect(result.ok && result.structured).toMatchObject({ method: 'PUT', url: '/moved', body: '{"v":1}' });
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('stops redirect loops and honours maxRedirects 0', async () => {
    const api = await server((request, response) => {
      response.writeHead(302, { location: request.url === '/a' ? '/b' : '/a' });
      response.end();
    });
    const rest = provider({
      loop: { description: 'd', method: 'GET', url: `${api.origin}/a`, parametersSchema: noArgs },
      none: {
        description: 'd',
        method: 'GET',
        url: `${api.origin}/a`,
        maxRedirects: 0,
        parametersSchema: noArgs,
      },
    });
    const loop = await rest.execute('loop', {}, createToolContext());
    expect(loop.ok === false && loop.error.message).toContain('redirected more than 5 times');
    expect(api.requests).toHaveLength(6);
    const none = await rest.execute('none', {}, createToolContext());
    expect(none.ok === false && none.error.details?.status).toBe(302);
  });
});

describe('redirects to other origins', () => {
  it('does not carry configured headers filled from ${VAR} to an allowed host on another origin', async () => {
    const key = fakeSecret('key');
    const other = await server();
    const api = await server((_request, response) => {
      // the same loopback server under another name: another origin the tool allows
      response.writeHead(302, { location: `${other.origin.replace('127.0.0.1', 'localhost')}/moved` });
      response.end();
    });
    const rest = provider(
      {
        get: {
          description: 'd',
          method: 'GET',
          url: `${api.origin}/x`,
          headers: { 'X-Api-Key': '${KEY}', 'X-Tenant': 'acme', 'X-Both': 'k=${KEY}' },
          allowedRedirectHosts: ['localhost'],
          parametersSchema: objectSchema({}),
        },
      },
      { env: { KEY: key } },
    );
    expect((await rest.execute('get', {}, createToolContext())).ok).toBe(true);
    expect(api.requests[0]?.headers['x-api-key']).toBe(key);
    expect(other.requests).toHaveLength(1);
    // a key in `headers` is as much a credential as one in `auth`: it stays on its origin
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(other.requests[0]?.headers['x-both']).toBeUndefined();
    expect(other.requests[0]?.headers['x-tenant']).toBe('acme');
  });
});

describe('a redirect with two location headers', () => {
  it('says where it points is unclear, follows neither, and sends the other places nothing', async () => {
    const elsewhere = await server();
    const api = await server((_request, response) => {
      response.writeHead(302, [
        ['location', '/first'],
        ['location', `${elsewhere.origin}/second`],
      ] as unknown as Record<string, string>);
      response.end();
    });
    const result = failure(
      await provider({ a: getTool(`${api.origin}/a`) }).execute('a', {}, createToolContext()),
    );
    // not "HTTP 302 ... (check the arguments and the endpoint)", as if the call were wrong
    expect(result.error.code).toBe('EXECUTION_FAILED');
    expect(result.error.message).toContain('redirected (HTTP 302) with 2 location headers');
    expect(api.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

/** A tool posting `bodyTemplate` to an API that answers `status` to another loopback origin. */
async function redirecting(status: number, bodyTemplate: unknown, method: RestToolConfig['method'] = 'POST') {
  const other = await server();
  const api = await server((request, response) => {
    if (!request.url.startsWith('/x')) return response.end('{}');
    response.writeHead(status, { location: `${other.origin}/moved` });
    response.end();
  });
  const secret = fakeSecret('key');
  const rest = provider(
    {
      send: {
        description: 'd',
        method,
        url: `${api.origin}/x`,
        bodyTemplate,
        allowedRedirectHosts: ['127.0.0.1'],
        parametersSchema: objectSchema({ text: { type: 'string' } }),
      },
    },
    { env: { KEY: secret } },
  );
  return { api, other, secret, call: () => rest.execute('send', { text: 'hi' }, createToolContext()) };
}

describe('a bodyTemplate holding ${VAR} values on a redirect to another origin', () => {
  for (const status of [307, 308]) {
    it(`refuses to follow a ${status} off the origin, and the other origin gets nothing`, async () => {
      const { api, other, secret, call } = await redirecting(status, {
        auth: { key: '${KEY}' },
        text: '{{text}}',
      });
      const result = failure(await call());
      // the body, secret included, is not sent on to the other origin
      expect(other.requests).toHaveLength(0);
      expect(api.requests[0]?.body).toContain(secret);
      expect(result.error.code).toBe('DENIED');
      expect(result.error.message).toContain(`redirected (HTTP ${status}) to ${other.origin}`);
      expect(result.error.message).toContain('${VAR}');
      expect(result.error.message).toContain("point the tool's url at");
      expect(result.error.message).not.toContain(secret);
      expect(result.error.retryable).toBe(false);
    });
  }

  it('refuses a PUT redirected by 302 too (the method and body are kept)', async () => {
    const { other, call } = await redirecting(302, 'key=${KEY}', 'PUT');
    expect(failure(await call()).error.code).toBe('DENIED');
    expect(other.requests).toHaveLength(0);
  });

  it('follows a body without ${VAR}, and a 303 that drops the body', async () => {
    const plain = await redirecting(307, { text: '{{text}}' });
    const sent = await plain.call();
    expect(sent.ok && sent.structured).toMatchObject({
      method: 'POST',
      url: '/moved',
      body: '{"text":"hi"}',
    });
    const seeOther = await redirecting(303, { key: '${KEY}' });
    const got = await seeOther.call();
    expect(got.ok && got.structured).toMatchObject({ method: 'GET', url: '/moved', body: '' });
    expect(JSON.stringify(seeOther.other.requests)).not.toContain(seeOther.secret);
  });
});

describe('${VAR} values of a bodyTemplate are credentials', () => {
  it('are listed by secretValues(), so an API echoing the body in an error can be scrubbed', async () => {
    const api = await server((request, response) => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`bad request: ${request.body}`);
    });
    const secret = fakeSecret('key');
    const rest = provider(
      {
        send: {
          description: 'd',
          method: 'POST',
          url: `${api.origin}/x`,
          bodyTemplate: { auth: ['${KEY}'], text: 'plain {{text}}' },
          parametersSchema: objectSchema({ text: { type: 'string' } }),
        },
      },
      { env: { KEY: secret } },
    );
    const result = failure(await rest.execute('send', { text: 'hi' }, createToolContext()));
    // the API's excerpt holds it: the scrubber must know it, as it knows auth's and headers' values
    expect(result.error.message).toContain(secret);
    expect(rest.secretValues()).toContain(secret);
  });
});

describe('${VAR} values in the path or query of a url', () => {
  it('are listed by secretValues() (a bot token in the path), the origin a url starts with is not', async () => {
    const api = await server((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no such method');
    });
    const token = fakeSecret('123456');
    const rest = provider(
      {
        send: {
          description: 'd',
          method: 'POST',
          url: '${API_BASE}/bot${BOT_TOKEN}/sendMessage?key=${QUERY_KEY}',
          parametersSchema: objectSchema({}),
        },
      },
      { env: { API_BASE: api.origin, BOT_TOKEN: token, QUERY_KEY: 'query-key-value' } },
    );
    const result = failure(await rest.execute('send', {}, createToolContext()));
    // every failure names the target, path included: the scrubber must know the token
    expect(result.error.message).toContain(`/bot${token}/sendMessage`);
    const secrets = rest.secretValues();
    expect(secrets).toContain(token);
    expect(secrets).toContain('query-key-value');
    expect(secrets).not.toContain(api.origin);
  });
});
