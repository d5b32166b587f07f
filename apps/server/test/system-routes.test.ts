import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

describe.each(storages())(
  'health, readiness, metrics and the OpenAPI document on $kind',
  ({ kind, skip }) => {
    let t: TestServer;

    beforeAll(async () => {
      if (skip) return;
      t = await startTestServer({ storage: kind });
      await putCustomTool(t, 'echo', ECHO_TOOL);
    });
    afterAll(async () => {
      await t?.close();
    });

    it.skipIf(skip)('answers /healthz and /readyz without a key, naming the storage', async () => {
      expect((await t.api('GET', '/healthz')).body).toEqual({ status: 'ok' });
      expect((await t.api('GET', '/readyz')).body).toEqual({ status: 'ready', database: kind });
    });

    it.skipIf(skip)('counts requests and tool calls in Prometheus metrics for admins', async () => {
      await t.api('POST', '/v1/tools/custom__echo/call', {
        key: t.adminKey,
        body: { arguments: { text: 'm' } },
      });
      const response = await fetch(`${t.url}/metrics`, {
        headers: { authorization: `Bearer ${t.adminKey}` },
      });
      expect(response.headers.get('content-type')).toMatch(/text\/plain/);
      const text = await response.text();
      expect(text).toMatch(/toolplane_tool_calls_total\{outcome="ok"\} [1-9]/);
      expect(text).toMatch(
        /toolplane_http_requests_total\{method="POST",route="\/v1\/tools\/:name\/call",status="200"\} [1-9]/,
      );
      expect(text).toContain('toolplane_process_resident_memory_bytes');
    });

    it.skipIf(skip)('documents every /v1 route in /openapi.json with bearer security', async () => {
      const doc = (await t.api('GET', '/openapi.json')).body;
      expect(doc.openapi).toBe('3.0.3');
      const paths = Object.keys(doc.paths);
      for (const path of [
        '/v1/tools',
        '/v1/tools/{name}/call',
        '/v1/batch',
        '/v1/keys',
        '/v1/grants',
        '/v1/grants/{id}',
        '/v1/access-requests',
        '/v1/access-requests/{id}/approve',
        '/v1/custom-tools/{name}',
        '/v1/mcp-servers/{name}',
        '/v1/rest-providers/{name}',
        '/v1/approvals',
        '/v1/approvals/stream',
        '/v1/approvals/{id}',
        '/v1/accounting',
        '/healthz',
        '/readyz',
      ])
        expect(paths, path).toContain(path);
      expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
      expect(doc.paths['/v1/tools'].get.security).toEqual([{ bearer: [] }]);
    });
  },
);
