import { createServer } from 'node:http';
import { createToolContext } from '@toolplane/core';
import { createRestProvider, importOpenApi } from './src/index.js';
const seen: unknown[] = [];
const server = createServer((req, res) => { seen.push({ url: req.url, headers: req.headers }); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const tool = (auth: unknown, extra = {}) => ({ description: 'a', method: 'GET' as const, url: `${origin}/a`, parametersSchema: { type: 'object' }, auth: auth as never, ...extra });
const cases: Record<string, unknown> = {
  queryNameAmp: { type: 'apiKey', in: 'query', name: 'a&b=c', value: 'v&x=y' },
  cookieNameSemi: { type: 'apiKey', in: 'cookie', name: 'a;b', value: 'v' },
  cookieValueSemi: { type: 'apiKey', in: 'cookie', name: 'k', value: 'v; admin=1' },
  hostHeader: { type: 'apiKey', in: 'header', name: 'Host', value: 'evil.example' },
  contentLength: { type: 'apiKey', in: 'header', name: 'Content-Length', value: '5' },
  transferEncoding: { type: 'apiKey', in: 'header', name: 'Transfer-Encoding', value: 'chunked' },
  connection: { type: 'apiKey', in: 'header', name: 'Connection', value: 'close' },
  basicColon: { type: 'basic', username: 'a:b', password: 'p' },
  bearerSpace: { type: 'bearer', token: 'a b' },
  bearerUnicode: { type: 'bearer', token: 'tökén' },
  emptyValue: { type: 'apiKey', in: 'header', name: 'X-Key', value: '' },
};
for (const [name, auth] of Object.entries(cases)) {
  try {
    const rest = createRestProvider({ namespace: 't', env: {}, tools: { a: tool(auth) } });
    const r = await rest.execute('a', {}, createToolContext());
    console.log(name, r.ok ? `OK ${JSON.stringify(seen.at(-1)).slice(0, 300)}` : `${r.error.code} ${r.error.message.slice(0, 200)}`);
    await rest.close();
  } catch (e) { console.log(name, 'THREW', (e as {code?: string}).code, (e as Error).message.slice(0, 200)); }
}
for (const header of ['Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Expect', 'Upgrade', 'Keep-Alive', 'TE']) {
  try {
    const rest = createRestProvider({ namespace: 't', env: {}, tools: { a: { ...tool(undefined), headers: { [header]: 'x' } } } });
    const r = await rest.execute('a', {}, createToolContext());
    console.log('headers.' + header, r.ok ? `OK ${JSON.stringify(seen.at(-1)).slice(0, 200)}` : `${r.error.code} ${r.error.message.slice(0, 200)}`);
    await rest.close();
  } catch (e) { console.log('headers.' + header, 'THREW', (e as {code?: string}).code, (e as Error).message.slice(0, 200)); }
}
const doc = { openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: origin }], security: [{ k: [] }], components: { securitySchemes: { k: { type: 'apiKey', in: 'header', name: 'Host' } } }, paths: { '/a': { get: { operationId: 'a', parameters: [{ name: 'Content-Length', in: 'header', schema: { type: 'string' } }] } } } };
const imp = await importOpenApi({ document: doc }, { namespace: 'i' });
console.log('import', JSON.stringify(imp.tools.a?.auth), JSON.stringify(imp.tools.a?.parameters), imp.warnings);
const rest = createRestProvider({ namespace: 'i', env: { I_K: 'evil.example' }, tools: imp.tools });
const r = await rest.execute('a', { 'Content-Length': '9' }, createToolContext());
console.log('imported call', r.ok ? JSON.stringify(seen.at(-1)).slice(0, 300) : `${r.error.code} ${r.error.message}`);
await rest.close(); server.close();
