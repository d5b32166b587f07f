import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@toolplane/core';
import { createMcpProvider } from '@toolplane/mcp-provider';
import { type ToolsOrchestrator, createOrchestrator } from '@toolplane/orchestrator';
import { createRestProvider } from '@toolplane/rest-openapi';
import { createScrubber, scrubberMiddleware } from '@toolplane/scrubber';
import { ALPHABETS, createFakeSource } from '@toolplane/scrubber/testing';
import { afterEach, describe, expect, it } from 'vitest';

const fake = createFakeSource();
const fixtureServer = fileURLToPath(new URL('../../mcp-provider/test/fixtures/server.mjs', import.meta.url));
let orchestrator: ToolsOrchestrator | undefined;
let http: Server | undefined;

afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  http = undefined;
});

function text(result: ToolResult): string {
  return (result.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

describe('an MCP server through the orchestrator', () => {
  it('lists namespaced tools, calls them, and redacts the secrets the provider holds', async () => {
    const secret = fake.chars(ALPHABETS.alnum, 32);
    const provider = createMcpProvider('fixture', {
      type: 'stdio',
      command: process.execPath,
      args: [fixtureServer, '--tag=integration'],
      env: { FIXTURE_API_KEY: secret },
    });
    const scrubber = createScrubber();
    orchestrator = createOrchestrator();
    orchestrator.register(provider);
    orchestrator.use(scrubberMiddleware(scrubber));
    const [report] = (await orchestrator.warmup()).filter((r) => r.provider === 'fixture');
    expect(report?.ok, report?.error).toBe(true);
    for (const value of provider.secretValues?.() ?? []) scrubber.addSecret(value);

    const names = orchestrator.listTools().map((tool) => tool.name);
    expect(names).toContain('fixture__echo');
    expect(names).toContain('fixture__add');
    expect(orchestrator.instructions()).toContain('Fixture server');

    const sum = await orchestrator.call('fixture__add', { a: 2, b: 3 });
    expect(sum.ok && sum.structured).toEqual({ sum: 5 });
    const echoed = await orchestrator.call('fixture__echo', { message: `the key is ${secret}` });
    expect(echoed.ok).toBe(true);
    expect(text(echoed)).not.toContain(secret);
    const invalid = await orchestrator.call('fixture__add', { a: 'x' });
    expect(!invalid.ok && invalid.error.code).toBe('INVALID_ARGUMENTS');
  });
});

describe('a REST API through the orchestrator', () => {
  it('builds the request from the arguments, sends auth from the environment, and caps nothing small', async () => {
    const key = fake.chars(ALPHABETS.alnum, 40);
    const seen: Array<{ method?: string; url?: string; auth?: string }> = [];
    http = createServer((request, response) => {
      seen.push({ method: request.method, url: request.url, auth: request.headers.authorization });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: request.url?.split('/')[2]?.split('?')[0], echoedKey: key }));
    });
    await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as AddressInfo).port;
    const provider = createRestProvider({
      namespace: 'api',
      env: { API_KEY: key },
      tools: {
        get_item: {
          description: 'Fetches an item.',
          method: 'GET',
          url: `http://127.0.0.1:${port}/items/{id}`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the provider's own ${VAR} template
          headers: { authorization: 'Bearer ${API_KEY}' },
          parametersSchema: {
            type: 'object',
            properties: { id: { type: 'string' }, verbose: { type: 'boolean' } },
            required: ['id'],
          },
          sideEffect: 'read',
        },
      },
    });
    const scrubber = createScrubber();
    orchestrator = createOrchestrator();
    orchestrator.register(provider);
    orchestrator.use(scrubberMiddleware(scrubber));
    await orchestrator.warmup();
    for (const value of provider.secretValues?.() ?? []) scrubber.addSecret(value);

    const result = await orchestrator.call('api__get_item', { id: '../admin?x=1', verbose: true });
    expect(result.ok, text(result)).toBe(true);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.url?.startsWith('/items/..%2Fadmin%3Fx%3D1')).toBe(true);
    expect(seen[0]?.auth).toBe(`Bearer ${key}`);
    expect(text(result)).not.toContain(key);
  });
});
