import { createServer } from 'node:http';
import { createToolContext } from '@toolplane/core';
import { createRestProvider, importOpenApi } from './src/index.js';
const seen: string[] = [];
const server = createServer((req, res) => { seen.push(`${req.method} ${req.url}`); if (req.url?.startsWith('/slow')) { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('start'); return; } res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ url: req.url })); });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const doc = { openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: origin }], paths: {
  '/a b/{id}': { get: { operationId: 'space', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
  '/c?x=1': { get: { operationId: 'query', parameters: [{ name: 'y', in: 'query', schema: { type: 'string' } }] } },
  '/e/{ïd}/{a.b}': { get: { operationId: 'odd', parameters: ['ïd', 'a.b'].map((n) => ({ name: n, in: 'path', required: true, schema: { type: 'string' } })) } },
  '/ü/x': { get: { operationId: 'unicodePath' } },
  '/slow': { get: { operationId: 'slow' } },
  '/f/{id}.json': { get: { operationId: 'suffix', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
} };
const { tools, warnings } = await importOpenApi({ document: doc }, { namespace: 'x' });
console.log(Object.keys(tools), warnings);
const rest = createRestProvider({ namespace: 'x', tools, env: {} });
for (const [name, args] of [['space', { id: '1' }], ['query', { y: 'z' }], ['odd', { 'ïd': 'a', 'a.b': 'b' }], ['unicodePath', {}], ['suffix', { id: 'a' }]] as const) {
  const r = await rest.execute(name, args as Record<string, unknown>, createToolContext());
  console.log(name, r.ok ? r.content[0] : r.error);
}
const controller = new AbortController();
setTimeout(() => controller.abort(), 300);
const r = await rest.execute('slow', {}, createToolContext({ signal: controller.signal }));
console.log('cancel mid-body', r.ok ? r.content : r.error);
console.log(seen);
await rest.close(); server.closeAllConnections(); server.close();
