// Imports the Petstore OpenAPI document, writes the tool config for review, and calls one tool.
// Run: pnpm --filter @toolplane/rest-openapi example:petstore
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { createRestProvider, importOpenApi, readToolConfig, writeToolConfig } from '@toolplane/rest-openapi';

// a stand-in for the Petstore server, so the example runs offline
const api = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({ method: request.method, url: request.url, apiKey: request.headers.api_key ?? null }),
  );
});
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v3`;

const document = join(import.meta.dirname, '../node_modules/@readme/oas-examples/3.0/yaml/petstore.yaml');
const { tools, warnings, info } = await importOpenApi(document, {
  namespace: 'petstore',
  baseUrl: base, // the document says https://petstore3.swagger.io/api/v3
  include: { tags: ['pet', 'store'] },
  exclude: { methods: ['DELETE'] },
  maxDescriptionLength: 300,
});
console.log(
  `${info.title} ${info.version} (OpenAPI ${info.specification}): ${Object.keys(tools).length} tools`,
);
for (const warning of warnings) console.log(`warning: ${warning}`);

// review or edit what the model will see, then load it back
const folder = await mkdtemp(join(tmpdir(), 'petstore-'));
const file = join(folder, 'petstore.tools.yaml');
await writeToolConfig(file, tools);
const reviewed = await readToolConfig(file);
console.log(`wrote ${file}`);

const petstore = createRestProvider({
  namespace: 'petstore',
  tools: reviewed,
  env: { PETSTORE_API_KEY: 'demo-key' },
});
const result = await petstore.execute(
  'findPetsByStatus',
  { status: ['available', 'sold'] },
  createToolContext(),
);
console.log(JSON.stringify(result));
await petstore.close();
await rm(folder, { recursive: true, force: true });
api.close();
