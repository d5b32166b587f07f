// Reliability run, outside the test suite: many calls with random hostile arguments, slow and
// cancelled calls, and streams, against a loopback server that records every request target.
// Fails (exit 1) if any request reaches an unexpected path, a call throws, or a result has an
// unexpected code. Run: pnpm --filter @toolplane/rest-openapi soak [calls]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { createRestProvider } from '../src/index.js';

const calls = Number(process.argv[2] ?? 20_000);
const violations: string[] = [];
let served = 0;
let openSockets = 0;
let peakSockets = 0;

const server = createServer((request, response) => {
  served++;
  const url = request.url ?? '';
  if (url.startsWith('/slow')) {
    setTimeout(() => {
      if (!response.destroyed) response.end('late');
    }, 200);
    return;
  }
  if (url.startsWith('/stream')) {
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (let i = 0; i < 5; i++) response.write(`${JSON.stringify({ type: 'token', text: `t${i} ` })}\n`);
    response.end(`${JSON.stringify({ type: 'done' })}\n`);
    return;
  }
  if (!/^\/files\/[^/?#]+\/meta\?q=[^&#]*$/.test(url)) violations.push(`unexpected request target ${url}`);
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ url }));
});
server.on('connection', (socket) => {
  openSockets++;
  peakSockets = Math.max(peakSockets, openSockets);
  socket.on('close', () => openSockets--);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const rest = createRestProvider({
  namespace: 'soak',
  env: {},
  tools: {
    file: {
      description: 'd',
      method: 'GET',
      url: `${origin}/files/{name}/meta`,
      parametersSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, q: { type: 'string' } },
        required: ['name'],
      },
    },
    slow: {
      description: 'd',
      method: 'GET',
      url: `${origin}/slow`,
      timeoutMs: 50,
      parametersSchema: { type: 'object' },
    },
    stream: {
      description: 'd',
      method: 'POST',
      url: `${origin}/stream`,
      streaming: {
        mode: 'json-stream',
        discriminatorField: 'type',
        doneValue: 'done',
        tokenValue: 'token',
        tokenField: 'text',
      },
      parametersSchema: { type: 'object' },
    },
  },
});

const alphabet = [
  'a',
  'Z',
  '0',
  '.',
  '..',
  '/',
  '\\',
  '?',
  '#',
  '@',
  '%',
  '%2e',
  '%2F',
  '&',
  '=',
  '+',
  ' ',
  '\r',
  '\n',
  ':',
  ';',
  'é',
  '🙂',
  '\0',
];
function hostile(): string {
  let text = '';
  const length = 1 + Math.floor(Math.random() * 8);
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
  return text;
}

const codes = new Map<string, number>();
const startRss = process.memoryUsage().rss;
const started = performance.now();
for (let i = 0; i < calls; i++) {
  const kind = i % 50 === 0 ? 'slow' : i % 20 === 0 ? 'stream' : i % 33 === 0 ? 'cancel' : 'file';
  try {
    let code: string;
    if (kind === 'slow') {
      const result = await rest.execute('slow', {}, createToolContext());
      code = result.ok ? 'ok' : result.error.code;
      if (code !== 'TIMEOUT') violations.push(`slow call gave ${code}`);
    } else if (kind === 'stream') {
      const result = await rest.execute('stream', {}, createToolContext());
      code = result.ok ? 'ok' : result.error.code;
      if (!result.ok) violations.push(`stream gave ${code}`);
    } else {
      const controller = new AbortController();
      const pending = rest.execute(
        'file',
        { name: hostile(), q: hostile() },
        createToolContext({ signal: controller.signal }),
      );
      if (kind === 'cancel') controller.abort();
      const result = await pending;
      code = result.ok ? 'ok' : result.error.code;
      if (!['ok', 'INVALID_ARGUMENTS', 'CANCELLED'].includes(code))
        violations.push(`file call gave ${code}: ${result.ok ? '' : result.error.message}`);
    }
    codes.set(`${kind}:${code}`, (codes.get(`${kind}:${code}`) ?? 0) + 1);
  } catch (error) {
    violations.push(`call ${i} threw ${String(error)}`);
  }
  if (violations.length > 20) break;
}
const seconds = (performance.now() - started) / 1000;
await rest.close();
await new Promise<void>((resolve) => server.close(() => resolve()));
console.log(
  `${calls} calls in ${seconds.toFixed(1)} s; server saw ${served} requests; peak open sockets ${peakSockets}`,
);
console.log(`results: ${[...codes.entries()].map(([key, count]) => `${key}=${count}`).join(' ')}`);
console.log(`rss ${(startRss / 1e6).toFixed(0)} MB -> ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
if (violations.length > 0) {
  console.error(`FAILED:\n${violations.slice(0, 20).join('\n')}`);
  process.exit(1);
}
console.log('OK: no request left its path, no call threw, every result had an expected code');
