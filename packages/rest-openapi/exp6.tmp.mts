import { createServer } from 'node:http';
import { createToolContext } from '/work/main/packages/core/src/index.ts';
import { createRestProvider } from '/work/main/packages/rest-openapi/src/index.ts';
let mode = 'echo';
const seen: any[] = [];
const srv = createServer((req, res) => { const c: Buffer[] = []; req.on('data', (d) => c.push(d)); req.on('end', () => {
  seen.push({ url: req.url, headers: req.headers, body: Buffer.concat(c).toString() });
  if (mode === 'deep') { res.writeHead(200, { 'content-type': 'application/json' }); res.end('['.repeat(100000) + ']'.repeat(100000)); return; }
  if (mode === 'proto') { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"a":[{"__proto__":null}]}'); return; }
  res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); }); });
await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
const origin = `http://127.0.0.1:${(srv.address() as any).port}`;
const any = { type: 'object' };
const rest = createRestProvider({ namespace: 't', env: {}, tools: {
  q: { description: 'd', method: 'GET', url: `${origin}/q/{p}`, parametersSchema: { type: 'object', properties: { p: {}, deep: any, form: any, h: any, plain: any, lab: any } },
    parameters: { p: { in: 'path', style: 'simple', explode: true }, deep: { in: 'query', style: 'deepObject', explode: true }, form: { in: 'query', style: 'form', explode: true }, h: { in: 'header', name: 'x-h', explode: true }, plain: { in: 'query', style: 'form', explode: false }, lab: { in: 'cookie' } } },
  j: { description: 'd', method: 'POST', url: `${origin}/j`, parametersSchema: { type: 'object' } },
  jb: { description: 'd', method: 'POST', url: `${origin}/jb`, parametersSchema: { type: 'object' }, bodyTemplate: { wrap: '{{x}}', lit: 'a' } },
  f: { description: 'd', method: 'POST', url: `${origin}/f`, parametersSchema: { type: 'object' }, body: { argument: 'b', contentType: 'application/x-www-form-urlencoded' } },
  m: { description: 'd', method: 'POST', url: `${origin}/m`, parametersSchema: { type: 'object' }, body: { argument: 'b', contentType: 'multipart/form-data' } },
  cq: { description: 'd', method: 'GET', url: `${origin}/cq`, parametersSchema: { type: 'object' }, hasComplexQueryParams: true },
  r: { description: 'd', method: 'GET', url: `${origin}/r`, parametersSchema: { type: 'object' } },
} });
const proto = (o: string) => JSON.parse(o);
const ctx = () => createToolContext();
const show = async (name: string, args: any) => { const r = await rest.execute(name, args, ctx()); console.log(name, r.ok ? 'ok' : JSON.stringify(r.error).slice(0, 300)); const s = seen.at(-1); console.log('  ', s?.url, s?.headers['x-h'], s?.headers.cookie, s?.body?.slice(0, 300)); return r; };
await show('q', proto('{"p":{"__proto__":"pp","constructor":"c"},"deep":{"__proto__":{"x":1},"toString":"t"},"form":{"__proto__":"v","a":"b"},"h":{"__proto__":"hv","k":"v"},"plain":{"__proto__":"z"},"lab":{"__proto__":"c"}}'));
await show('j', proto('{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"toJSON":"tj"}'));
await show('jb', proto('{"x":{"__proto__":{"x":1}},"__proto__":"y"}'));
await show('f', proto('{"b":{"__proto__":"v","toString":"w"}}'));
await show('m', proto('{"b":{"__proto__":"v","toString":"w"}}'));
await show('cq', proto('{"__proto__":{"a":1},"o":{"__proto__":{"b":2}}}'));
mode = 'deep';
const d = await rest.execute('r', {}, ctx()); console.log('deep', d.ok, JSON.stringify(d).slice(0, 300), JSON.stringify(d).length);
mode = 'proto';
const p = await rest.execute('r', {}, ctx()); console.log('proto', JSON.stringify(p).slice(0, 600), p.ok && Object.getPrototypeOf((p as any).structured) === Object.prototype, p.ok && Object.hasOwn((p as any).structured, '__proto__'));
console.log(({} as any).admin, ({} as any).x);
await rest.close(); srv.close();
