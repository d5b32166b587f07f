import { createServer } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { createRestProvider, importOpenApi } from './src/index.js';

async function raw(respond: (socket: import('node:net').Socket) => void) {
  const server = createServer((socket) => {
    socket.once('data', () => respond(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { origin: `http://127.0.0.1:${port}`, close: () => { server.close(); } };
}
const cases: Record<string, (s: import('node:net').Socket) => void> = {
  earlyHints: (s) => s.end('HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\r\n{"a":1}'),
  continue100: (s) => s.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'),
  chunkGarbage: (s) => s.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-type: text/plain\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'),
  lyingShort: (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\ncontent-type: text/plain\r\n\r\nonly this'),
  lyingLong: (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 3\r\ncontent-type: text/plain\r\n\r\nmore than three'),
  hugeHeaders: (s) => s.end(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(200_000)}\r\ncontent-length: 2\r\n\r\nok`),
  manyHeaders: (s) => s.end(`HTTP/1.1 200 OK\r\n${Array.from({ length: 5000 }, (_, i) => `x-h${i}: v`).join('\r\n')}\r\ncontent-length: 2\r\n\r\nok`),
  bothLengthChunked: (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'),
  status999: (s) => s.end('HTTP/1.1 999 Weird\r\ncontent-length: 2\r\n\r\nok'),
  status1xxFinal: (s) => s.end('HTTP/1.1 199 Odd\r\n\r\n'),
  noStatus: (s) => s.end('garbage\r\n\r\n'),
  closeNoBody: (s) => s.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"partial'),
  negativeLength: (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: -5\r\n\r\nok'),
  redirectSelfLoop: (s) => s.end('HTTP/1.1 302 Found\r\nlocation: /a\r\ncontent-length: 0\r\n\r\n'),
  retryAfterHuge429: (s) => s.end('HTTP/1.1 429 Too Many\r\nretry-after: 99999999999\r\ncontent-length: 0\r\n\r\n'),
};
for (const [name, respond] of Object.entries(cases)) {
  const server = await raw(respond);
  const rest = createRestProvider({ namespace: 't', env: {}, headersTimeoutMs: 3000, bodyTimeoutMs: 3000, timeoutMs: 8000, tools: { a: { description: 'a', method: 'GET', url: `${server.origin}/a`, parametersSchema: { type: 'object' } } } });
  try {
    const r = await rest.execute('a', {}, createToolContext());
    console.log(name, r.ok ? `OK ${JSON.stringify(r.content).slice(0, 100)}` : `${r.error.code} ${r.error.message.slice(0, 200)} ${JSON.stringify(r.error.details ?? {}).slice(0,100)}`);
  } catch (e) { console.log(name, 'THREW', e); }
  await rest.close();
  server.close();
}
