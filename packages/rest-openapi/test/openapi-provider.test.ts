import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  createOpenApiProvider,
  createRestProvider,
  importOpenApi,
  readToolConfig,
  writeToolConfig,
} from '../src/index.js';
import { example } from './helpers/examples.js';
import { useCleanups } from './helpers/fixtures.js';
import { echo } from './helpers/loopback.js';

const { server, defer } = useCleanups();

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'rest-openapi-'));
  defer(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

describe('tool config files', () => {
  for (const file of ['petstore.tools.json', 'petstore.tools.yaml']) {
    it(`writes an import to ${file}, reads it back, and the provider built from it works`, async () => {
      const api = await server();
      const folder = await tempFolder();
      const path = join(folder, file);
      const { tools } = await importOpenApi(example('3.1', 'petstore.json'), {
        namespace: 'petstore',
        baseUrl: `${api.origin}/v2`,
      });
      await writeToolConfig(path, tools);
      const text = await readFile(path, 'utf8');
      expect(text).toContain('findPetsByStatus');
      expect(text).toContain('${PETSTORE_API_KEY}');
      if (file.endsWith('.yaml')) expect(text).not.toMatch(/^\s*[&*]\w/m);
      const reread = await readToolConfig(path);
      expect(reread).toEqual(JSON.parse(JSON.stringify(tools)));
      const rest = createRestProvider({
        namespace: 'petstore',
        tools: reread,
        env: { PETSTORE_API_KEY: 'k' },
      });
      defer(() => rest.close());
      const result = await rest.execute('getPetById', { petId: 5 }, createToolContext());
      expect(result.ok).toBe(true);
      expect(api.requests.at(-1)?.url).toBe('/v2/pet/5');
    });
  }

  it('reports a malformed tool config file with the tool and field', async () => {
    const folder = await tempFolder();
    const path = join(folder, 'bad.yaml');
    await writeFile(
      path,
      stringify({
        tools: { broken: { description: 'x', method: 'GET', url: 'not a url', parametersSchema: {} } },
      }),
    );
    await expect(readToolConfig(path)).rejects.toThrow(/REST tool "broken": url must start/);
    await writeFile(path, 'just: text\n');
    await expect(readToolConfig(path)).rejects.toThrow(/"tools"/);
  });
});

describe('createOpenApiProvider', () => {
  it('imports in start(), lists REST tools with groups and hashes, and runs calls', async () => {
    const api = await server();
    const provider = createOpenApiProvider(example('3.0', 'petstore.json'), {
      namespace: 'petstore',
      baseUrl: `${api.origin}/v2`,
      include: { tags: ['pet'] },
      env: { PETSTORE_API_KEY: 'key-from-env' },
    });
    defer(() => provider.close());
    expect(provider.listTools()).toEqual([]);
    const early = await provider.execute('getPetById', { petId: 1 }, createToolContext());
    expect(early.ok === false && early.error.code).toBe('PROVIDER_UNAVAILABLE');
    await provider.start?.(AbortSignal.timeout(30_000));
    const specs = provider.listTools();
    expect(specs.length).toBe(8);
    for (const spec of specs) {
      expect(spec.groups).toEqual(['rest', 'rest:petstore']);
      expect(spec.meta?.definitionHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(specs.find((spec) => spec.name === 'deletePet')?.annotations?.destructiveHint).toBe(true);
    expect(provider.warnings().join('\n')).toContain('petstore_auth');
    const result = await provider.execute('getPetById', { petId: 1 }, createToolContext());
    expect(result.ok).toBe(true);
    expect(api.requests.at(-1)?.url).toBe('/v2/pet/1');
    expect(api.requests.at(-1)?.headers.api_key).toBe('key-from-env');
    expect(provider.secretValues()).toContain('key-from-env');
  });

  it('loads a YAML document from a URL and resolves its relative server against it', async () => {
    const yaml = await readFile(example('3.0', 'petstore.yaml'), 'utf8');
    const relative = yaml.replace(/servers:\n(\s+- url: .*\n)+/, 'servers:\n  - url: /api/v3\n');
    expect(relative).toContain('url: /api/v3');
    const api = await server((request, response) => {
      if (request.url === '/docs/openapi.yaml') {
        response.writeHead(200, { 'content-type': 'application/yaml' });
        return response.end(relative);
      }
      if (request.url === '/docs/missing.yaml') {
        response.writeHead(404);
        return response.end();
      }
      echo(request, response);
    });
    const { tools } = await importOpenApi(`${api.origin}/docs/openapi.yaml`);
    expect(tools.getPetById?.url).toBe(`${api.origin}/api/v3/pet/{petId}`);
    const error = await importOpenApi(`${api.origin}/docs/missing.yaml`).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(String((error as Error).message)).toContain('HTTP 404');
  });
});
