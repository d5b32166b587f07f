// Child process of the benchmark: a loopback HTTP server answering a small JSON document.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ id: 'item-1', name: 'An item', tags: ['a', 'b'], count: 3 });
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('disconnect', () => server.close());
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
