import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
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

const STDIO_SERVER = fileURLToPath(new URL('./fixtures/stdio-mcp-server.mjs', import.meta.url));

/** A loopback REST API with its own OpenAPI document. */
async function startPetApi(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const match = /^\/pets\/(\d+)$/.exec(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    if (request.method === 'GET' && match)
      response.end(JSON.stringify({ id: Number(match[1]), name: `pet ${match[1]}` }));
    else {
      response.statusCode = 404;
      response.end('{"message":"no such route"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const petDocument = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        summary: 'One pet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'The pet' } },
      },
    },
  },
};

describe.each(storages())('admin resources on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let api: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind });
    api = await startPetApi();
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  it.skipIf(skip)(
    'creates, lists, replaces and deletes a custom tool, reloading without a restart',
    async () => {
      const created = await t.api('PUT', '/v1/custom-tools/hello', {
        key: t.adminKey,
        body: { ...ECHO_TOOL, env: { GREETING_TOKEN: 'sekret-value-123' } },
      });
      expect(created.status).toBe(201);
      expect(created.body.tool.toolName).toBe('custom__hello');
      expect(created.body.tool.envNames).toEqual(['GREETING_TOKEN']);
      expect(JSON.stringify(created.body)).not.toContain('sekret-value-123');
      const call = await t.api('POST', '/v1/tools/custom__hello/call', {
        key: t.adminKey,
        body: { arguments: { text: 'a' } },
      });
      expect(call.body.result.content[0].text).toBe('[a]\n');
      const replaced = await t.api('PUT', '/v1/custom-tools/hello', {
        key: t.adminKey,
        body: { ...ECHO_TOOL, argv: ['printf', '<%s>', '{text}'] },
      });
      expect(replaced.status).toBe(200);
      const again = await t.api('POST', '/v1/tools/custom__hello/call', {
        key: t.adminKey,
        body: { arguments: { text: 'a' } },
      });
      expect(again.body.result.content[0].text).toBe('<a>');
      const list = await t.api('GET', '/v1/custom-tools', { key: t.adminKey });
      expect(list.body.tools.map((tool: { name: string }) => tool.name)).toContain('hello');
      expect((await t.api('DELETE', '/v1/custom-tools/hello', { key: t.adminKey })).status).toBe(200);
      expect((await t.api('DELETE', '/v1/custom-tools/hello', { key: t.adminKey })).body.error.reason).toBe(
        'not_found',
      );
      const gone = await t.api('POST', '/v1/tools/custom__hello/call', {
        key: t.adminKey,
        body: { arguments: { text: 'a' } },
      });
      expect(gone.status).toBe(404);
    },
  );

  it.skipIf(skip)(
    'keeps a custom tool environment sealed in the database and gives it to the command',
    async () => {
      await putCustomTool(t, 'env_probe', {
        description: 'Prints a variable',
        parameters: { type: 'object', properties: {} },
        argv: ['sh', '-c', 'printf %s "$PROBE_VALUE"'],
        env: { PROBE_VALUE: 'plain-text-never-stored' },
      });
      const call = await t.api('POST', '/v1/tools/custom__env_probe/call', {
        key: t.adminKey,
        body: { arguments: {} },
      });
      expect(call.body.result.ok).toBe(true);
      // the scrubber knows the value as a secret, so the output carries it redacted
      expect(call.body.result.content[0].text).not.toContain('plain-text-never-stored');
    },
  );

  it.skipIf(skip)(
    'refuses a custom tool whose command is a placeholder or names an unknown parameter',
    async () => {
      const placeholder = await t.api('PUT', '/v1/custom-tools/bad', {
        key: t.adminKey,
        body: { ...ECHO_TOOL, argv: ['{text}'] },
      });
      expect(placeholder.status).toBe(400);
      expect(placeholder.body.error.reason).toBe('invalid_custom_tool');
      const unknown = await t.api('PUT', '/v1/custom-tools/bad', {
        key: t.adminKey,
        body: { ...ECHO_TOOL, argv: ['echo', '{other}'] },
      });
      expect(unknown.body.error.message).toContain('{other}');
    },
  );

  it.skipIf(skip)('registers a stdio MCP server, calls its tools and removes it', async () => {
    const put = await t.api('PUT', '/v1/mcp-servers/fixture', {
      key: t.adminKey,
      body: { type: 'stdio', command: process.execPath, args: [STDIO_SERVER], env: { FIXTURE_TOKEN: 'x' } },
    });
    expect(put.status).toBe(200);
    expect(put.body.created).toBe(true);
    const list = await t.api('GET', '/v1/mcp-servers', { key: t.adminKey });
    expect(list.body.servers[0].config.envNames).toEqual(['FIXTURE_TOKEN']);
    const tools = await t.api('GET', '/v1/tools', { key: t.adminKey });
    expect(tools.body.tools.map((tool: { name: string }) => tool.name)).toContain('fixture__echo');
    const call = await t.api('POST', '/v1/tools/fixture__echo/call', {
      key: t.adminKey,
      body: { arguments: { text: 'over stdio' } },
    });
    expect(call.body.result.content[0].text).toBe('over stdio');
    expect((await t.api('DELETE', '/v1/mcp-servers/fixture', { key: t.adminKey })).status).toBe(200);
    const after = await t.api('GET', '/v1/tools', { key: t.adminKey });
    expect(after.body.tools.map((tool: { name: string }) => tool.name)).not.toContain('fixture__echo');
  });

  it.skipIf(skip)(
    'imports an OpenAPI document as a REST provider and calls the loopback API through it',
    async () => {
      const put = await t.api('PUT', '/v1/rest-providers/pets', {
        key: t.adminKey,
        body: { openapi: petDocument, baseUrl: api.url },
      });
      expect(put.status).toBe(200);
      expect(put.body.provider.tools).toEqual(['getPet']);
      const call = await t.api('POST', '/v1/tools/pets__getPet/call', {
        key: t.adminKey,
        body: { arguments: { petId: 7 } },
      });
      expect(call.body.result.ok).toBe(true);
      expect(JSON.stringify(call.body.result.content)).toContain('pet 7');
      const list = await t.api('GET', '/v1/rest-providers', { key: t.adminKey });
      expect(list.body.providers.map((p: { name: string }) => p.name)).toEqual(['pets']);
      expect((await t.api('DELETE', '/v1/rest-providers/pets', { key: t.adminKey })).status).toBe(200);
      expect(
        (
          await t.api('POST', '/v1/tools/pets__getPet/call', {
            key: t.adminKey,
            body: { arguments: { petId: 7 } },
          })
        ).status,
      ).toBe(404);
    },
  );

  it.skipIf(skip)('refuses a REST provider with neither a document nor tools', async () => {
    const put = await t.api('PUT', '/v1/rest-providers/empty', { key: t.adminKey, body: {} });
    expect(put.status).toBe(400);
    expect(put.body.error.reason).toBe('invalid_rest_provider');
  });

  it.skipIf(skip)(
    'changes a grant with If-Match and refuses the second of two edits of one version with 409',
    async () => {
      const created = await grant(t, 'agent', 'editor', ['custom__a']);
      const fetched = await t.api('GET', `/v1/grants/${created.id}`, { key: t.adminKey });
      const etag = fetched.headers.get('etag') as string;
      expect(etag).toBe('"1"');
      const [first, second] = await Promise.all([
        t.api('PATCH', `/v1/grants/${created.id}`, {
          key: t.adminKey,
          body: { allow: ['custom__b'] },
          headers: { 'if-match': etag },
        }),
        t.api('PATCH', `/v1/grants/${created.id}`, {
          key: t.adminKey,
          body: { allow: ['custom__c'] },
          headers: { 'if-match': etag },
        }),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([200, 409]);
      const loser = first.status === 409 ? first : second;
      expect(loser.body.error.reason).toBe('version_conflict');
      const winner = first.status === 200 ? first : second;
      expect(winner.headers.get('etag')).toBe('"2"');
      const final = await t.api('GET', `/v1/grants/${created.id}`, { key: t.adminKey });
      expect(final.body.grant.allow).toEqual(winner.body.grant.allow);
      expect((await t.api('DELETE', `/v1/grants/${created.id}`, { key: t.adminKey })).status).toBe(200);
    },
  );

  it.skipIf(skip)(
    'approves an access request by creating its grant in the same transaction, once',
    async () => {
      await putCustomTool(t, 'wanted', ECHO_TOOL);
      const userKey = await makeKey(t, t.adminKey, 'user', 'alice@example.com');
      const before = await t.api('POST', '/v1/tools/custom__wanted/call', {
        key: userKey,
        body: { arguments: { text: 'x' } },
      });
      expect(before.status).toBe(403);
      expect(before.body.result.error.code).toBe('DENIED');
      const asked = await t.api('POST', '/v1/access-requests', {
        key: userKey,
        body: { tools: ['custom__wanted'], reason: 'for the report' },
      });
      expect(asked.status).toBe(201);
      const id = asked.body.request.id;
      const mine = await t.api('GET', '/v1/access-requests', { key: userKey });
      expect(mine.body.requests.map((request: { id: string }) => request.id)).toEqual([id]);
      expect((await t.api('POST', `/v1/access-requests/${id}/approve`, { key: userKey })).status).toBe(403);
      const approved = await t.api('POST', `/v1/access-requests/${id}/approve`, { key: t.adminKey });
      expect(approved.status).toBe(200);
      expect(approved.body.request.status).toBe('approved');
      expect(approved.body.request.grantId).toBe(approved.body.grant.id);
      const again = await t.api('POST', `/v1/access-requests/${id}/reject`, { key: t.adminKey });
      expect(again.status).toBe(409);
      expect(again.body.error.reason).toBe('already_decided');
      const grants = await t.api('GET', '/v1/grants', { key: t.adminKey });
      expect(
        grants.body.grants.filter((g: { principalId: string }) => g.principalId === 'alice@example.com'),
      ).toHaveLength(1);
      const call = await t.api('POST', '/v1/tools/custom__wanted/call', {
        key: userKey,
        body: { arguments: { text: 'x' } },
      });
      expect(call.body.result.ok).toBe(true);
    },
  );

  it.skipIf(skip)('rejects an access request without creating a grant', async () => {
    const agentKey = await makeKey(t, t.adminKey, 'agent', 'hopeful');
    const asked = await t.api('POST', '/v1/access-requests', {
      key: agentKey,
      body: { tools: ['custom__*'] },
    });
    const rejected = await t.api('POST', `/v1/access-requests/${asked.body.request.id}/reject`, {
      key: t.adminKey,
    });
    expect(rejected.body.request.status).toBe('rejected');
    expect(rejected.body.grant).toBeUndefined();
    const grants = await t.api('GET', '/v1/grants', { key: t.adminKey });
    expect(
      grants.body.grants.filter((g: { principalId: string }) => g.principalId === 'hopeful'),
    ).toHaveLength(0);
  });
});
