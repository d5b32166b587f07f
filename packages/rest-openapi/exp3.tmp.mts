import { createToolContext } from '/work/main/packages/core/src/index.ts';
import { importOpenApi, createRestProvider } from '/work/main/packages/rest-openapi/src/index.ts';
const base = (paths: any, components: any = {}) => ({ openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'http://127.0.0.1:9' }], paths, components });
async function attempt(label: string, doc: any, opts: any = {}) {
  const t0 = Date.now();
  try {
    const r = await importOpenApi({ document: doc }, { namespace: 't', ...opts });
    const names = Object.keys(r.tools);
    console.log(label, 'ok', names.length, names.slice(0, 3), r.warnings.slice(0, 2).map((w) => w.slice(0, 200)), Date.now() - t0, 'ms');
    return r;
  } catch (e: any) { console.log(label, 'THROW', e.code, String(e.message).slice(0, 300), (e.stack ?? '').split('\n').slice(1, 3).join('|'), Date.now() - t0, 'ms'); }
}
// a) ref chain 10k
{
  const schemas: any = {};
  for (let i = 0; i < 10000; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
  schemas.S10000 = { type: 'string' };
  await attempt('refchain', base({ '/a': { get: { operationId: 'a', parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/schemas/S0' } }], responses: {} } } }, { schemas }));
}
// b) nested 10k
{
  let s: any = { type: 'string' };
  for (let i = 0; i < 10000; i++) s = { type: 'object', properties: { x: s } };
  await attempt('nested', base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'application/json': { schema: s } } }, responses: {} } } }));
  let arr: any = { type: 'string' };
  for (let i = 0; i < 10000; i++) arr = { type: 'array', items: arr };
  await attempt('nested-items', base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'application/json': { schema: arr } } }, responses: {} } } }));
  let all: any = { type: 'string' };
  for (let i = 0; i < 10000; i++) all = { allOf: [all] };
  await attempt('nested-allOf', base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { f: all } } } } }, responses: {} } } }));
  const r = await attempt('nested-70', base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'application/json': { schema: (() => { let s: any = { type: 'integer' }; for (let i = 0; i < 70; i++) s = { type: 'object', properties: { x: s }, required: ['x'] }; return s; })() } } }, responses: {} } } }));
  if (r) console.log(JSON.stringify(r.tools.a?.parametersSchema).length);
}
// c) allOf 10k members
{
  const members = Array.from({ length: 10000 }, (_, i) => ({ type: 'object', properties: { [`p${i}`]: { type: 'string' } } }));
  await attempt('allOf10k', base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'application/json': { schema: { allOf: members } } } }, responses: {} } } }));
  const refs = Array.from({ length: 10000 }, (_, i) => ({ $ref: `#/components/schemas/M${i}` }));
  const schemas: any = {}; for (let i = 0; i < 10000; i++) schemas[`M${i}`] = { type: 'object', properties: { [`p${i}`]: { $ref: '#/components/schemas/Tree' } } };
  schemas.Tree = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } };
  await attempt('allOf10k-refs', base({ '/a': { post: { operationId: 'a', requestBody: { content: { 'application/json': { schema: { allOf: refs } } } }, responses: {} } } }, { schemas }));
}
// d) 100k operations
{
  const paths: any = {};
  for (let i = 0; i < 100000; i++) paths[`/p${i}/{id}`] = { get: { operationId: `op${i}`, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: {} } };
  await attempt('100k-ops', base(paths));
}
// e) hostile names
{
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'toJSON', 'valueOf'];
  const paths: any = {};
  for (const n of names) paths[`/${n}/{${n}}`] = { post: { operationId: n, security: [{ [n]: [] }], parameters: [
    { name: n, in: 'path', required: true, schema: { type: 'string' } },
    { name: n, in: 'query', schema: { type: 'string' } },
    { name: n, in: 'header', schema: { type: 'string' } },
  ], requestBody: { content: { 'application/json': { schema: { type: 'object', properties: Object.fromEntries(names.map((m) => [m, { type: 'string' }])), required: names } } } }, responses: {} } };
  const securitySchemes: any = {};
  for (const n of names) Object.defineProperty(securitySchemes, n, { value: { type: 'apiKey', in: 'header', name: `X-${n.replace(/_/g, '')}` }, enumerable: true });
  const doc = base(paths, { securitySchemes });
  doc.servers = [{ url: 'http://127.0.0.1:9/{constructor}/{__proto__}', variables: Object.defineProperty({ constructor: { default: 'c' } }, '__proto__', { value: { default: 'p' }, enumerable: true }) }];
  const r = await attempt('names', doc, { envPrefix: 'X' });
  if (r) for (const [k, t] of Object.entries(r.tools)) console.log(k, t.url, JSON.stringify(t.auth), Object.keys(t.parameters ?? {}), Object.keys((t.parametersSchema.properties as any) ?? {}));
  // names in serverVariables option
  await attempt('servervars', doc, { serverVariables: JSON.parse('{"constructor":"c2","__proto__":"p2"}') });
  await attempt('servervars-toString', { ...doc, servers: [{ url: 'http://127.0.0.1:9/x' }] }, { serverVariables: JSON.parse('{"toString":"c2"}') });
  await attempt('cred-toString', doc, { credentials: JSON.parse('{"toString":{"value":"v"}}') });
  await attempt('cred-unknown', doc, { credentials: JSON.parse('{"__proto__":{"value":"v"}}') });
}
