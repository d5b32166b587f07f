import { importOpenApi } from '/work/main/packages/rest-openapi/src/index.ts';
const base = (paths: any, components: any = {}) => ({ openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'http://127.0.0.1:9' }], paths, components });
let s: any = { type: 'integer' }; for (let i = 0; i < 70; i++) s = { type: 'object', properties: { x: s }, required: ['x'] };
const r = await importOpenApi({ document: base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'application/json': { schema: s } } }, responses: {} } } }) }, { namespace: 't' });
let node: any = (r.tools.a!.parametersSchema.properties as any).body; let d = 0; while (node?.properties?.x) { node = node.properties.x; d++; }
console.log('depth kept', d, JSON.stringify(node));
const schemas: any = {};
for (let i = 0; i < 10000; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
schemas.S10000 = { type: 'string', maxLength: 3 };
const r2 = await importOpenApi({ document: base({ '/a': { get: { operationId: 'a', parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/schemas/S0' } }], responses: {} } } }, { schemas }) }, { namespace: 't' });
console.log(JSON.stringify(r2.tools.a?.parametersSchema), r2.warnings);
for (const n of [25000, 50000]) {
  const paths: any = {};
  for (let i = 0; i < n; i++) paths[`/p${i}/{id}`] = { get: { operationId: `op${i}`, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: {} } };
  const t0 = Date.now(); await importOpenApi({ document: base(paths) }, { namespace: 't' }); console.log(n, Date.now() - t0);
}
