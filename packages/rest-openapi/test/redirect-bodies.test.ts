import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import type { RestToolConfig } from '../src/index.js';
import { failure } from './helpers/bad-input.js';
import { fakeSecret, objectSchema, useCleanups } from './helpers/fixtures.js';

const { server, provider } = useCleanups();

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
      // the body, secret included, used to be sent on to the other origin
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

  it('still follows a body without ${VAR}, and a 303 that drops the body', async () => {
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
