import { importOpenApi } from './src/index.js';
const base = { openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: 'https://api.example.test' }] };
async function probe(name: string, doc: unknown, opts: Record<string, unknown> = {}) {
  try {
    const r = await importOpenApi({ document: doc as object }, { namespace: 'p', ...opts });
    console.log(name, Object.entries(r.tools).map(([k, v]) => `${k} -> ${v.method} ${v.url} ${JSON.stringify(v.parametersSchema).slice(0, 150)}`), r.warnings);
  } catch (e) { console.log(name, 'THREW', (e as {code?: string}).code, (e as Error).message.slice(0, 200)); }
}
await probe('paramCycle', { ...base, paths: { '/a': { get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/A' }] } } }, components: { parameters: { A: { $ref: '#/components/parameters/B' }, B: { $ref: '#/components/parameters/A' } } } });
await probe('paramSelf', { ...base, paths: { '/a': { get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/A' }] } } }, components: { parameters: { A: { $ref: '#/components/parameters/A' } } } });
await probe('pathItemRefCycle', { ...base, paths: { '/a': { $ref: '#/paths/~1b' }, '/b': { $ref: '#/paths/~1a' } } });
await probe('requestBodyCycle', { ...base, paths: { '/a': { post: { operationId: 'a', requestBody: { $ref: '#/components/requestBodies/X' } } } }, components: { requestBodies: { X: { $ref: '#/components/requestBodies/X' } } } });
await probe('responsesCycle', { ...base, paths: { '/a': { get: { operationId: 'a', responses: { 200: { $ref: '#/components/responses/R' } } } } }, components: { responses: { R: { $ref: '#/components/responses/R' } } } });
await probe('schemaViaParamCycle', { ...base, paths: { '/a': { get: { operationId: 'a', parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/parameters/Q/schema' } }] } } }, components: { parameters: { Q: { name: 'q', in: 'query', schema: { $ref: '#/paths/~1a/get/parameters/0/schema' } } } } });
await probe('collide', { ...base, paths: { '/a': { get: { operationId: 'a/b' } }, '/b': { get: { operationId: 'a_b' } }, '/c': { get: { operationId: 'a.b' } }, '/d': { get: { operationId: 'a b' } } } });
await probe('emptyOpId', { ...base, paths: { '/a': { get: { operationId: '' } }, '/b': { get: { operationId: '///' } }, '/c': { get: { operationId: 'ünïcödé' } } } });
await probe('longOpId', { ...base, paths: { '/a': { get: { operationId: 'x'.repeat(300) } }, '/b': { get: { operationId: `${'x'.repeat(300)}y` } } } });
await probe('oddPathParam', { ...base, paths: { '/a/{ïd}/{a.b}/{a-b}/{$x}': { get: { operationId: 'a', parameters: ['ïd', 'a.b', 'a-b', '$x'].map((n) => ({ name: n, in: 'path', required: true, schema: { type: 'string' } })) } } } });
await probe('pathSpace', { ...base, paths: { '/a b/{id}': { get: { operationId: 'a', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } }, '/c?x=1': { get: { operationId: 'c' } }, '/d%2e%2e/x': { get: { operationId: 'd' } }, 'e': { get: { operationId: 'e' } }, '//evil.example/x': { get: { operationId: 'f' } } } });
await probe('serverVarNoDefault', { ...base, servers: [{ url: 'https://{region}.api.example.test', variables: { region: { enum: ['eu', 'us'] } } }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('serverVarEmptyEnum', { ...base, servers: [{ url: 'https://{region}.api.example.test', variables: { region: { default: 'eu', enum: [] } } }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('serverVarUndeclared', { ...base, servers: [{ url: 'https://{region}.api.example.test' }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('serverVarDefaultNotInEnum', { ...base, servers: [{ url: 'https://{region}.api.example.test', variables: { region: { default: 'ap', enum: ['eu'] } } }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('serverVarNumber', { ...base, servers: [{ url: 'https://api.example.test:{port}', variables: { port: { default: 8443 } } }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('serverVarEmptyDefault', { ...base, servers: [{ url: 'https://api.example.test{base}', variables: { base: { default: '' } } }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('serverVarPort', { ...base, servers: [{ url: 'https://api.example.test:{port}', variables: { port: { default: '99999' } } }], paths: { '/a': { get: { operationId: 'a' } } } });
await probe('pathsArray', { ...base, paths: [] });
await probe('pathsNull', { ...base, paths: null });
await probe('paramNoName', { ...base, paths: { '/a': { get: { operationId: 'a', parameters: [{ in: 'query', schema: { type: 'string' } }, { name: 5, in: 'query' }, { name: 'x', in: 'body' }, { name: 'y' }] } } } });
await probe('headerParamBadName', { ...base, paths: { '/a': { get: { operationId: 'a', parameters: [{ name: 'bad name', in: 'header', schema: { type: 'string' } }, { name: 'x\r\ny', in: 'query', schema: { type: 'string' } }, { name: 'c;d', in: 'cookie', schema: { type: 'string' } }] } } } });
