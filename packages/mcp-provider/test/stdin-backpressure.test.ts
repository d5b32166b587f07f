// A stdio server that stops reading its standard input: what the client writes to it waits for
// the pipe to drain, which never happens. Each write that waits must not add a listener of its
// own to the pipe, and none may wait forever once the server is gone.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { StdioProcessTransport } from '../src/stdio/index.js';
import { fixture, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** Arguments large enough that a few calls fill a pipe the server does not read. */
const BIG = 'x'.repeat(20_000);

describe('a server that stops reading its standard input', () => {
  it('gets no drain listener per waiting write: 40 calls time out without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    const tag = uniqueTag();
    const provider = createMcpProvider(
      'deaf',
      {
        type: 'stdio',
        command: process.execPath,
        args: [fixture('deaf-server.mjs'), `--tag=${tag}`],
        requestTimeoutMs: 1500,
        healthProbe: 'none',
      },
      { runDirectory: run.path, killGraceMs: 200 },
    );
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const results = await Promise.all(
        Array.from({ length: 40 }, () => provider.execute('deaf', { big: BIG }, createToolContext())),
      );
      expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(
        Array.from({ length: 40 }, () => 'TIMEOUT'),
      );
      // a warning is emitted on the next turn at the latest
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await provider.close?.();
    }
    expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
  }, 60_000);

  it('settles every write that waited for the pipe once the server is stopped', async () => {
    const transport = new StdioProcessTransport({
      server: 'deaf',
      // reads nothing at all: every write past the pipe's buffer waits
      config: { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1 << 30)'] },
      killGraceMs: 200,
    });
    await transport.start();
    const settled: string[] = [];
    const writes = Array.from({ length: 40 }, (_, index) =>
      transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { index, big: BIG } }).then(
        () => settled.push('sent'),
        () => settled.push('refused'),
      ),
    );
    // the first writes fill the pipe; the rest wait for a drain that never comes
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled.length).toBeLessThan(40);
    await transport.close();
    await Promise.all(writes);
    expect(settled).toHaveLength(40);
  }, 30_000);
});
