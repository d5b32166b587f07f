import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayStdioTransport } from '../src/gateway/stdio-transport.js';

const transports: GatewayStdioTransport[] = [];
afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
});

/** A started transport over in-memory streams, with every chunk written to its output. */
async function startTransport(): Promise<{
  transport: GatewayStdioTransport;
  output: PassThrough;
  chunks: string[];
}> {
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const transport = new GatewayStdioTransport(new PassThrough(), output);
  transports.push(transport);
  await transport.start();
  return { transport, output, chunks };
}

describe('GatewayStdioTransport writes', () => {
  it('holds the answers of one tick until the next, then sends them one line each, in order', async () => {
    const { transport, output, chunks } = await startTransport();
    const sent = Array.from({ length: 5 }, (_, index) =>
      transport.send({ jsonrpc: '2.0', id: index, result: { index } }),
    );
    expect(output.writableCorked).toBeGreaterThan(0);
    await Promise.all(sent);
    expect(output.writableCorked).toBe(0);
    const lines = chunks.join('').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([0, 1, 2, 3, 4]);
  });

  it('answers a request received in a later tick on its own', async () => {
    const { transport, chunks } = await startTransport();
    await transport.send({ jsonrpc: '2.0', id: 'first', result: {} });
    await transport.send({ jsonrpc: '2.0', id: 'second', result: {} });
    const ids = chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(['first', 'second']);
  });
});
