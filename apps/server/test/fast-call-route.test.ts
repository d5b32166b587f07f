import { request } from 'node:http';
import { PROVIDER_SPEC_VERSION, type ToolProvider, ok } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

const RATE_LIMIT = 40;
const MAX_BODY = 4096;

const quickProvider: ToolProvider = {
  specificationVersion: PROVIDER_SPEC_VERSION,
  kind: 'internal',
  namespace: 'quick',
  listTools: () =>
    ['noop', 'other'].map((name) => ({
      name,
      description: `The ${name} tool`,
      inputSchema: { type: 'object', properties: {} },
      sideEffect: 'none' as const,
    })),
  execute: async (name, args) => ok(`${name} ${JSON.stringify(args)}`),
};

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request over a fresh connection, answered as bytes. */
function send(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(`${url}${path}`, { method: 'POST', headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The answer with what differs between two runs of the same call (ids, durations) made fixed. */
function normalized(answer: RawAnswer): unknown {
  const body = answer.body
    .replace(/call_[0-9a-f-]{36}/g, 'call_ID')
    .replace(/"(\w*(?:Ms|ms|At))":[0-9.]+/g, '"$1":0');
  const { date: _date, 'content-length': length, ...headers } = answer.headers;
  return {
    status: answer.status,
    headers,
    body,
    lengthFits: Number(length) === Buffer.byteLength(answer.body),
  };
}

describe.each(storages())('the fast tool-call route and the app route agree on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let other: { key: string };
  let agentKey: string;
  let revokedKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({
      storage: kind,
      providers: [quickProvider],
      rateLimitPerMinute: RATE_LIMIT,
      maxBodyBytes: MAX_BODY,
      maxBodyDepth: 8,
    });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    agentKey = await makeKey(t, t.adminKey, 'agent', 'fast');
    await grant(t, 'agent', 'fast', ['quick__noop', 'custom__echo']);
    const tenant = await t.api('POST', '/v1/tenants', { key: t.adminKey, body: { id: 'elsewhere' } });
    expect(tenant.status).toBe(201);
    other = { key: tenant.body.key };
    revokedKey = await makeKey(t, t.adminKey, 'agent', 'gone');
    const keys = await t.api('GET', '/v1/keys', { key: t.adminKey });
    const id = keys.body.keys.find((k: { principalId: string }) => k.principalId === 'gone').id;
    expect((await t.api('DELETE', `/v1/keys/${id}`, { key: t.adminKey })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The same request on the fast route and (with a query, which the fast route leaves) on the app's. */
  async function both(
    name: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
  ): Promise<[RawAnswer, RawAnswer]> {
    const fast = await send(t.url, `/v1/tools/${name}/call`, headers, body);
    const app = await send(t.url, `/v1/tools/${name}/call?via=app`, headers, body);
    return [fast, app];
  }
  const json = { 'content-type': 'application/json' };
  const bearer = (key: string) => ({ ...json, authorization: `Bearer ${key}` });
  const cases: [string, () => [string, Record<string, string>, string | Buffer | undefined], number][] = [
    ['a granted call', () => ['quick__noop', bearer(agentKey), '{"arguments":{"a":1}}'], 200],
    ['an empty body', () => ['quick__noop', bearer(agentKey), undefined], 200],
    [
      'a custom tool that runs a command',
      () => ['custom__echo', bearer(agentKey), '{"arguments":{"text":"hi"}}'],
      200,
    ],
    ['arguments the tool refuses', () => ['custom__echo', bearer(agentKey), '{"arguments":{}}'], 400],
    ['no key', () => ['quick__noop', json, '{}'], 401],
    [
      'a header that is not a bearer key',
      () => ['quick__noop', { ...json, authorization: 'Basic abc' }, '{}'],
      401,
    ],
    ['a wrong key', () => ['quick__noop', bearer(`tpk_${'x'.repeat(43)}`), '{}'], 401],
    ['a revoked key', () => ['quick__noop', bearer(revokedKey), '{}'], 401],
    ["another tenant's tool", () => ['custom__echo', bearer(other.key), '{"arguments":{"text":"x"}}'], 404],
    ['a tool not granted', () => ['quick__other', bearer(agentKey), '{}'], 403],
    ['no such tool', () => ['quick__missing', bearer(agentKey), '{}'], 404],
    ['bad JSON', () => ['quick__noop', bearer(agentKey), '{"arguments":'], 400],
    [
      'a body too deep',
      () => ['quick__noop', bearer(agentKey), `{"arguments":${'['.repeat(10)}${']'.repeat(10)}}`],
      400,
    ],
    ['arguments that are not an object', () => ['quick__noop', bearer(agentKey), '{"arguments":[1]}'], 400],
    [
      'a body over the limit',
      () => ['quick__noop', bearer(agentKey), JSON.stringify({ arguments: { pad: 'x'.repeat(MAX_BODY) } })],
      413,
    ],
  ];

  for (const [title, make, status] of cases)
    it.skipIf(skip)(`answers ${title} alike (${status})`, async () => {
      const [name, headers, body] = make();
      const [fast, app] = await both(name, headers, body);
      expect(fast.status).toBe(status);
      expect(normalized(fast)).toEqual(normalized(app));
    });

  it.skipIf(skip)('answers a body over the limit that claims a small length alike (413)', async () => {
    const big = Buffer.from(JSON.stringify({ arguments: { pad: 'y'.repeat(MAX_BODY * 2) } }));
    const chunked = { ...bearer(agentKey), 'transfer-encoding': 'chunked' };
    const [fast, app] = await both('quick__noop', chunked, big);
    expect(fast.status).toBe(413);
    expect(normalized(fast)).toEqual(normalized(app));
  });

  it.skipIf(skip)('counts both routes against the same rate limit and refuses alike (429)', async () => {
    const key = await makeKey(t, t.adminKey, 'agent', 'busy');
    await grant(t, 'agent', 'busy', ['quick__noop']);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT / 2; i += 1) {
      const [fast, app] = await both('quick__noop', bearer(key), '{}');
      statuses.push(fast.status, app.status);
    }
    expect(statuses).toEqual(Array(RATE_LIMIT).fill(200));
    const [fast, app] = await both('quick__noop', bearer(key), '{}');
    expect(fast.status).toBe(429);
    expect(normalized(fast)).toEqual(normalized(app));
  });

  it.skipIf(skip)('writes the same log line on both routes, scrubbed', async () => {
    const key = await makeKey(t, t.adminKey, 'agent', 'logged');
    await grant(t, 'agent', 'logged', ['quick__noop']);
    const before = t.logs.length;
    await both('quick__noop', bearer(key), '{}');
    const lines = t.logs
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.path === '/v1/tools/quick__noop/call')
      .map(({ time: _time, durationMs: _duration, ...entry }) => entry);
    expect(lines).toEqual([
      {
        level: 'info',
        method: 'POST',
        path: '/v1/tools/quick__noop/call',
        status: 200,
        tenant: 'default',
        principal: 'agent:logged',
      },
      {
        level: 'info',
        method: 'POST',
        path: '/v1/tools/quick__noop/call',
        status: 200,
        tenant: 'default',
        principal: 'agent:logged',
      },
    ]);
    const metrics = await t.api('GET', '/metrics', { key: t.adminKey });
    expect(String(metrics.body)).toMatch(
      /toolplane_http_requests_total\{method="POST",route="\/v1\/tools\/:name\/call",status="200"\} \d+/,
    );
    expect(String(metrics.body)).not.toMatch(/route="unmatched",status="200"/);
  });
});
