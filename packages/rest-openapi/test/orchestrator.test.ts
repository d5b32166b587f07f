import { createOrchestrator } from '@toolplane/orchestrator';
import { describe, expect, it } from 'vitest';
import { createOpenApiProvider } from '../src/index.js';
import { example } from './helpers/examples.js';
import { useCleanups } from './helpers/fixtures.js';

const { server, defer } = useCleanups();

describe('with @toolplane/orchestrator', () => {
  it('serves an imported document under public names, validates, caches and times out through the pipeline', async () => {
    const api = await server((request, response) => {
      if (request.url.startsWith('/v2/store/inventory')) return; // hangs
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ url: request.url }));
    });
    const orchestrator = createOrchestrator({ timeoutMs: 30_000 });
    defer(() => orchestrator.close());
    orchestrator.register(
      createOpenApiProvider(example('3.1', 'petstore.json'), {
        namespace: 'petstore',
        baseUrl: `${api.origin}/v2`,
        env: { PETSTORE_API_KEY: 'orchestrated-key' },
        toolDefaults: { cache: '1m' },
      }),
    );
    await orchestrator.warmup();
    const names = orchestrator.listTools().map((tool) => tool.name);
    expect(names).toContain('petstore__getPetById');
    expect(names).toContain('petstore__findPetsByStatus');

    const first = await orchestrator.call('petstore__getPetById', { petId: 3 });
    expect(first.ok && first.structured).toEqual({ url: '/v2/pet/3' });
    const second = await orchestrator.call('petstore__getPetById', { petId: 3 });
    expect(second.ok).toBe(true);
    expect(second.meta?.cached).toBe(true);
    expect(api.requests).toHaveLength(1);

    const invalid = await orchestrator.call('petstore__getPetById', { petId: 'three' });
    expect(invalid.ok === false && invalid.error.code).toBe('INVALID_ARGUMENTS');

    const hung = await orchestrator.call('petstore__getInventory', {}, { timeoutMs: 500 });
    expect(hung.ok === false && hung.error.code).toBe('TIMEOUT');
  });
});
