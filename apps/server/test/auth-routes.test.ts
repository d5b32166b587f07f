import { randomBytes } from 'node:crypto';
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

interface RouteCase {
  readonly method: string;
  readonly path: string;
  readonly admin: boolean;
  readonly body?: unknown;
}

describe.each(storages())('auth on every route on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;
  let revokedKey: string;
  let otherTenantAdmin: string;
  let routes: RouteCase[];

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    agentKey = await makeKey(t, t.adminKey, 'agent', 'worker');
    const granted = await grant(t, 'agent', 'worker', ['custom__echo']);
    revokedKey = await makeKey(t, t.adminKey, 'agent', 'former');
    const keys = await t.api('GET', '/v1/keys', { key: t.adminKey });
    const revokedId = keys.body.keys.find((key: { principalId: string }) => key.principalId === 'former').id;
    expect((await t.api('DELETE', `/v1/keys/${revokedId}`, { key: t.adminKey })).status).toBe(200);
    const tenant = await t.api('POST', '/v1/tenants', { key: t.adminKey, body: { id: 'other-co' } });
    expect(tenant.status).toBe(201);
    otherTenantAdmin = tenant.body.key;
    const request = await t.api('POST', '/v1/access-requests', {
      key: agentKey,
      body: { tools: ['custom__x'] },
    });
    const requestId = request.body.request.id;
    routes = [
      { method: 'GET', path: '/v1/me', admin: false },
      { method: 'GET', path: '/v1/tools', admin: false },
      {
        method: 'POST',
        path: '/v1/tools/custom__echo/call',
        admin: false,
        body: { arguments: { text: 'x' } },
      },
      {
        method: 'POST',
        path: '/v1/batch',
        admin: false,
        body: { calls: [{ name: 'custom__echo', arguments: { text: 'x' } }] },
      },
      { method: 'GET', path: '/v1/access-requests', admin: false },
      { method: 'POST', path: '/v1/access-requests', admin: false, body: { tools: ['custom__echo'] } },
      {
        method: 'POST',
        path: '/mcp',
        admin: false,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      },
      { method: 'POST', path: `/v1/access-requests/${requestId}/approve`, admin: true },
      { method: 'POST', path: `/v1/access-requests/${requestId}/reject`, admin: true },
      { method: 'GET', path: '/v1/keys', admin: true },
      { method: 'POST', path: '/v1/keys', admin: true, body: { kind: 'agent', principalId: 'x' } },
      { method: 'DELETE', path: `/v1/keys/${revokedId}`, admin: true },
      { method: 'POST', path: '/v1/tenants', admin: true, body: { id: 'third' } },
      { method: 'GET', path: '/v1/grants', admin: true },
      {
        method: 'POST',
        path: '/v1/grants',
        admin: true,
        body: { principalKind: 'agent', principalId: 'x', allow: ['*'] },
      },
      { method: 'GET', path: `/v1/grants/${granted.id}`, admin: true },
      { method: 'PATCH', path: `/v1/grants/${granted.id}`, admin: true, body: { enabled: true } },
      { method: 'DELETE', path: `/v1/grants/${granted.id}`, admin: true },
      { method: 'GET', path: '/v1/custom-tools', admin: true },
      { method: 'PUT', path: '/v1/custom-tools/echo', admin: true, body: ECHO_TOOL },
      { method: 'DELETE', path: '/v1/custom-tools/echo', admin: true },
      { method: 'GET', path: '/v1/mcp-servers', admin: true },
      { method: 'PUT', path: '/v1/mcp-servers/x', admin: true, body: { url: 'http://127.0.0.1:1/mcp' } },
      { method: 'DELETE', path: '/v1/mcp-servers/x', admin: true },
      { method: 'GET', path: '/v1/rest-providers', admin: true },
      { method: 'PUT', path: '/v1/rest-providers/x', admin: true, body: {} },
      { method: 'DELETE', path: '/v1/rest-providers/x', admin: true },
      { method: 'GET', path: '/v1/approvals', admin: true },
      {
        method: 'POST',
        path: '/v1/approvals/approval_x',
        admin: true,
        body: { decision: 'deny', callId: 'c', tool: 't', argumentsHash: '0'.repeat(64) },
      },
      { method: 'GET', path: '/v1/accounting', admin: true },
      { method: 'GET', path: '/v1/accounting/calls', admin: true },
      { method: 'GET', path: '/v1/accounting/calls/call_x/tree', admin: true },
      { method: 'GET', path: '/metrics', admin: true },
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (route: RouteCase, authorization?: string) =>
    t.api(route.method, route.path, {
      ...(route.body !== undefined ? { body: route.body } : {}),
      headers: { accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
    });

  it.skipIf(skip)(
    'refuses every route but health, readiness and the OpenAPI document without a key: 401 key_missing',
    async () => {
      for (const route of routes) {
        const answer = await send(route);
        expect([route.path, answer.status, answer.body.error?.reason]).toEqual([
          route.path,
          401,
          'key_missing',
        ]);
      }
      for (const path of ['/healthz', '/readyz', '/openapi.json'])
        expect((await t.api('GET', path)).status).toBe(200);
    },
  );

  it.skipIf(skip)(
    'refuses an unknown key (401 key_invalid), a malformed header (401 key_malformed) and a revoked key (401 key_revoked)',
    async () => {
      const unknown = `tpk_${randomBytes(32).toString('base64url')}`;
      for (const route of routes) {
        expect([route.path, (await send(route, `Bearer ${unknown}`)).body.error?.reason]).toEqual([
          route.path,
          'key_invalid',
        ]);
        expect([route.path, (await send(route, `Basic ${unknown}`)).body.error?.reason]).toEqual([
          route.path,
          'key_malformed',
        ]);
        const revoked = await send(route, `Bearer ${revokedKey}`);
        expect([route.path, revoked.status, revoked.body.error?.reason]).toEqual([
          route.path,
          401,
          'key_revoked',
        ]);
      }
    },
  );

  it.skipIf(skip)('refuses an agent key on every admin route: 403 admin_only', async () => {
    for (const route of routes.filter((r) => r.admin)) {
      const answer = await send(route, `Bearer ${agentKey}`);
      expect([route.path, answer.status, answer.body.error?.reason]).toEqual([route.path, 403, 'admin_only']);
    }
  });

  it.skipIf(skip)("shows another tenant's admin nothing of this tenant", async () => {
    const key = `Bearer ${otherTenantAdmin}`;
    const byId = routes.filter((route) => /grant_|key_|req_/.test(route.path));
    for (const route of byId) {
      const answer = await send(route, key);
      expect([route.path, answer.status, answer.body.error?.reason]).toEqual([route.path, 404, 'not_found']);
    }
    const lists: [string, string][] = [
      ['/v1/grants', 'grants'],
      ['/v1/keys', 'keys'],
      ['/v1/custom-tools', 'tools'],
      ['/v1/tools', 'tools'],
      ['/v1/access-requests', 'requests'],
    ];
    for (const [path, field] of lists) {
      const answer = await t.api('GET', path, { key: otherTenantAdmin });
      expect(answer.status).toBe(200);
      const items = answer.body[field] as { tenantId?: string }[];
      if (field === 'keys') expect(items.every((item) => item.tenantId === 'other-co')).toBe(true);
      else expect([path, items]).toEqual([path, []]);
    }
    const call = await t.api('POST', '/v1/tools/custom__echo/call', {
      key: otherTenantAdmin,
      body: { arguments: { text: 'x' } },
    });
    expect(call.status).toBe(404);
    expect(call.body.result.error.code).toBe('TOOL_NOT_FOUND');
  });

  it.skipIf(skip)('lets only admins of the root tenant create tenants: 403 root_admin_only', async () => {
    const answer = await t.api('POST', '/v1/tenants', { key: otherTenantAdmin, body: { id: 'fourth' } });
    expect(answer.status).toBe(403);
    expect(answer.body.error.reason).toBe('root_admin_only');
  });
});
