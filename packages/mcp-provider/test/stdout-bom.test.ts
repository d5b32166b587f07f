// A stdio server whose output starts with a UTF-8 byte order mark (a .NET console set to UTF-8
// with a BOM writes one before its first line): the mark is not JSON, so read with it the first
// message, the answer to initialize, would be lost and the start would wait for startupTimeoutMs.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, fixture, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('a byte order mark before the first line of a stdio server', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`is skipped: the server starts and serves, and nothing is reported (client ${client})`, async () => {
      const log = eventLog();
      const provider = createMcpProvider(
        'bom',
        {
          type: 'stdio',
          command: 'sh',
          // the mark, then the fixture server on the same stdout
          args: ['-c', `printf '\\357\\273\\277'; exec "${process.execPath}" "${fixture('server.mjs')}"`],
          // far longer than a start takes: a start that waits for it fails the test's own timeout
          startupTimeoutMs: 120_000,
          healthIntervalMs: 0,
          client,
        },
        { runDirectory: run.path, onEvent: log.onEvent },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const result = await provider.execute('echo', { message: 'marked' }, createToolContext());
        expect(result.ok).toBe(true);
        expect(log.events.filter((event) => event.type === 'protocol-error')).toEqual([]);
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});
