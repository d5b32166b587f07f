// Requests sent to a stdio server in one tick reach its stdin in one write (one `writev`), and the
// server reads them one line each, in order.
import type { ChildProcess } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioProcessTransport } from '../src/stdio/index.js';

/** Reads lines until `count` arrived, then answers with the ids seen, in order. */
const COUNTING_SERVER = `
const count = Number(process.argv[1]);
let buffered = '';
const ids = [];
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  const lines = buffered.split('\\n');
  buffered = lines.pop();
  for (const line of lines) ids.push(JSON.parse(line).id);
  if (ids.length >= count)
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'reads', params: { ids } }) + '\\n');
});
`;

const transports: StdioProcessTransport[] = [];
afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
});

describe('writes to a stdio server', () => {
  it('sends the requests of one tick in one write, one line each, in order', async () => {
    const transport = new StdioProcessTransport({
      server: 'counting',
      config: { type: 'stdio', command: process.execPath, args: ['-e', COUNTING_SERVER, '5'] },
      killGraceMs: 200,
    });
    transports.push(transport);
    const answer = new Promise<JSONRPCMessage>((resolve) => {
      transport.onmessage = resolve;
    });
    await transport.start();
    // count the writes the pipe's stream hands to the system: `_write` for one chunk, `_writev` for several
    const stdin = (transport as unknown as { child: ChildProcess }).child.stdin as unknown as {
      _write: (...args: unknown[]) => void;
      _writev: (...args: unknown[]) => void;
    };
    const handed: string[] = [];
    const write = stdin._write.bind(stdin);
    const writev = stdin._writev.bind(stdin);
    stdin._write = (...args) => {
      handed.push('write');
      write(...args);
    };
    stdin._writev = (...args) => {
      handed.push('writev');
      writev(...args);
    };
    await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        transport.send({ jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'echo' } }),
      ),
    );
    const { params } = (await answer) as unknown as { params: { ids: number[] } };
    expect(params.ids).toEqual([0, 1, 2, 3, 4]);
    expect(handed).toEqual(['writev']);
  }, 30_000);
});
