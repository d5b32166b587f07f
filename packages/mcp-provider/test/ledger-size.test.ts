// The ledger of the stdio servers a process started (for reaping after a kill -9 of the parent)
// holds the servers that run, not every server ever started: a long-lived host that restarts a
// server, or stops a lazy one when idle and starts it again, would grow the file without end.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { fixtureServer, tempDirectory, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** The servers the ledgers in `directory` list, one line each. */
function ledgerLines(directory: string): string[] {
  const lines: string[] = [];
  for (const name of readdirSync(directory)) {
    if (!/^owner-.*\.jsonl$/.test(name)) continue;
    for (const line of readFileSync(join(directory, name), 'utf8').split('\n'))
      if (line.trim()) lines.push(line);
  }
  return lines;
}

describe('the process ledger', () => {
  it('lists only the servers that run: one after restarts and a crash, none after close', async () => {
    const directory = join(run.path, 'ledger');
    const provider = createMcpProvider('ledgered', fixtureServer(), {
      runDirectory: directory,
      killGraceMs: 200,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(ledgerLines(directory)).toHaveLength(1);
      for (let restart = 0; restart < 4; restart++) await provider.restart(AbortSignal.timeout(30_000));
      const pid = provider.status().pid;
      expect(ledgerLines(directory).map((line) => JSON.parse(line).pid)).toEqual([pid]);
      // a crash: the server is restarted, and the one that died leaves the ledger
      await provider.execute('crash', {}, createToolContext());
      expect(
        await waitFor(() => provider.status().state === 'ready' && provider.status().pid !== pid, 30_000),
      ).toBe(true);
      expect(await waitFor(() => ledgerLines(directory).length === 1, 10_000)).toBe(true);
      expect(JSON.parse(ledgerLines(directory)[0] ?? '{}').pid).toBe(provider.status().pid);
    } finally {
      await provider.close?.();
    }
    expect(ledgerLines(directory)).toEqual([]);
  }, 90_000);
});
