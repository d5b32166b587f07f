import { importOpenApi } from './src/index.js';
const head = '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"servers":[{"url":"https://api.example.test"}],"paths":{"/a":{"get":{"operationId":"a"}}},"x-junk":';
for (const depth of [10_000, 100_000, 1_000_000]) {
  const text = head + '['.repeat(depth) + ']'.repeat(depth) + '}';
  try { const r = await importOpenApi({ text }, { namespace: 'd' }); console.log('json', depth, Object.keys(r.tools)); } catch (e) { console.log('json', depth, 'THREW', (e as {code?:string}).code, (e as Error).message.slice(0, 150)); }
  const withRef = head + '['.repeat(depth) + ']'.repeat(depth) + ',"x-ref":{"$ref":"other.json"}}';
  try { const r = await importOpenApi({ text: withRef }, { namespace: 'd' }); console.log('jsonref', depth, Object.keys(r.tools)); } catch (e) { console.log('jsonref', depth, 'THREW', (e as {code?:string}).code, (e as Error).message.slice(0, 150)); }
  const yaml = `openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers: [{url: 'https://api.example.test'}]\npaths: {/a: {get: {operationId: a}}}\nx-junk: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
  try { const r = await importOpenApi({ text: yaml }, { namespace: 'd' }); console.log('yaml', depth, Object.keys(r.tools)); } catch (e) { console.log('yaml', depth, 'THREW', (e as {code?:string}).code, (e as Error).message.slice(0, 150)); }
}
// deep parameter schema in the path of a tool
const deep: Record<string, unknown> = { type: 'string' };
let node = deep; for (let i = 0; i < 5000; i++) { const next = { type: 'object', properties: {} as Record<string, unknown> }; (node as any).properties = undefined; node = next; }
