// A hand-written REST tool against a small local API. Run: pnpm --filter @toolplane/rest-openapi example:hand-written
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { createRestProvider } from '@toolplane/rest-openapi';

// a stand-in for a real weather API, so the example runs offline
const api = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const city = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  const authorized = request.headers.authorization === `Bearer ${process.env.WEATHER_TOKEN}`;
  response.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      authorized ? { city, units: url.searchParams.get('units'), celsius: 21.5 } : { error: 'bad token' },
    ),
  );
});
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

process.env.WEATHER_TOKEN ??= `demo-${Math.random().toString(36).slice(2)}`;
const weather = createRestProvider({
  namespace: 'weather',
  tools: {
    current: {
      description: 'Current weather of a city.',
      method: 'GET',
      url: `${base}/v1/weather/{city}`,
      headers: { authorization: 'Bearer ${WEATHER_TOKEN}' },
      parametersSchema: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name, e.g. "São Paulo"' },
          units: { type: 'string', enum: ['metric', 'imperial'] },
        },
        required: ['city'],
        additionalProperties: false,
      },
      cache: '5m',
      timeoutMs: '10s',
    },
  },
});

console.log(
  weather.listTools().map((spec) => `${spec.name}: ${spec.description} [${spec.groups?.join(', ')}]`),
);
const result = await weather.execute('current', { city: 'São Paulo', units: 'metric' }, createToolContext());
console.log(JSON.stringify(result));
const refused = await weather.execute('current', { city: '../admin' }, createToolContext());
console.log(
  'path argument stays one segment:',
  refused.ok ? JSON.stringify(refused.structured) : refused.error.message,
);
await weather.close();
api.close();
