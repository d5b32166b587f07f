import { createToolContext } from '/work/main/packages/core/src/index.ts';
import { createRestProvider, writeToolConfig, readToolConfig, importOpenApi } from '/work/main/packages/rest-openapi/src/index.ts';
const tool = (p: string) => ({ description: 'd', method: 'GET', url: `http://127.0.0.1:9/${p}`, parametersSchema: { type: 'object' } });
const tools = JSON.parse('{"__proto__":{},"constructor":{},"toString":{},"ok":{}}');
for (const k of Object.keys(tools)) tools[k] = tool(k);
console.log(Object.keys(tools));
for (const ext of ['json', 'yaml']) {
  const file = `/tmp/ro/tools.${ext}`;
  await writeToolConfig(file, tools);
  try { const back = await readToolConfig(file); console.log(ext, Object.keys(back), Object.getPrototypeOf(back) === Object.prototype || Object.getPrototypeOf(back)); } catch (e: any) { console.log(ext, 'THROW', e.code, e.message); }
}
const rest = createRestProvider({ namespace: 't', env: {}, tools: { ok: tool('ok') } as any });
for (const n of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) { try { const r = await rest.execute(n, {}, createToolContext()); console.log(n, JSON.stringify(r).slice(0, 200)); } catch (e: any) { console.log(n, 'THROW', e.code, e.message); } }
const rest2 = createRestProvider({ namespace: 't', env: {}, tools });
console.log((await rest2.listTools()).map((t: any) => t.name));
for (const n of ['constructor', 'toString', '__proto__']) { const r = await rest2.execute(n, {}, createToolContext()); console.log(n, JSON.stringify(r).slice(0, 150)); }
await rest.close(); await rest2.close();
