// A start the caller cancels is CANCELLED to that caller and leaves no process. Callers who come
// while a server starts join that start; it goes on while one of them still waits, and is
// abandoned only when every one has cancelled.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

describe('a start that is cancelled', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: stops waiting for a server that never answers initialize, and leaves no process`, async () => {
      const tag = uniqueTag();
      // Reads its stdin and never writes: initialize would wait for the 60 s startup timeout.
      const provider = createMcpProvider(
        'silent',
        {
          type: 'stdio',
          command: process.execPath,
          args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1000);', '--', `--tag=${tag}`],
          client,
          healthIntervalMs: 0,
          startupTimeoutMs: 60_000,
        },
        { runDirectory: run.path },
      );
      try {
        const controller = new AbortController();
        const starting = provider.start?.(controller.signal);
        await waitFor(() => pidsWithTag(tag).length > 0, 10_000);
        controller.abort();
        await expect(starting).rejects.toMatchObject({
          code: 'CANCELLED',
          message: expect.stringMatching(/start was cancelled/),
        });
        await waitFor(() => pidsWithTag(tag).length === 0, 10_000);
        expect(pidsWithTag(tag)).toEqual([]);
        // Cancelled before it begins: CANCELLED at once, and nothing is launched.
        const early = provider.start?.(AbortSignal.abort());
        await expect(early).rejects.toMatchObject({ code: 'CANCELLED' });
        expect(pidsWithTag(tag)).toEqual([]);
      } finally {
        await provider.close?.();
      }
    });
  }
});

describe('a start two callers share', () => {
  /** A provider whose server does not answer initialize until `open()`; its processes carry `tag`. */
  function gatedProvider() {
    const tag = uniqueTag();
    const gate = join(run.path, `gate-${randomUUID()}`);
    const provider = createMcpProvider('joined', fixtureServer([`--wait-for=${gate}`, `--tag=${tag}`]), {
      runDirectory: run.path,
    });
    return { provider, tag, open: () => writeFileSync(gate, '') };
  }

  it('goes on for the caller still waiting when the one who began it cancels', async () => {
    const { provider, tag, open } = gatedProvider();
    try {
      const first = new AbortController();
      const began = provider.start?.(first.signal);
      const joined = provider.start?.(new AbortController().signal);
      expect(await waitFor(() => pidsWithTag(tag).length > 0, 20_000)).toBe(true);
      first.abort();
      await expect(began).rejects.toMatchObject({
        code: 'CANCELLED',
        message: expect.stringMatching(/start was cancelled/),
      });
      open();
      await expect(joined).resolves.toBeUndefined();
      expect((await provider.listTools()).length).toBeGreaterThan(0);
      const echoed = await provider.execute('echo', { message: 'still here' }, createToolContext());
      expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: 'still here' });
    } finally {
      await provider.close?.();
    }
  });

  it('is abandoned only when every caller waiting on it has cancelled, leaving no process', async () => {
    const { provider, tag } = gatedProvider();
    try {
      const callers = [new AbortController(), new AbortController()];
      const starts = callers.map((caller) => provider.start?.(caller.signal));
      expect(await waitFor(() => pidsWithTag(tag).length > 0, 20_000)).toBe(true);
      callers[1]?.abort();
      await expect(starts[1]).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(pidsWithTag(tag).length).toBeGreaterThan(0); // still starting for the other caller
      callers[0]?.abort();
      await expect(starts[0]).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
    } finally {
      await provider.close?.();
    }
  });

  it('a caller who comes while an abandoned start is torn down gets a new start, not its failure', async () => {
    const { provider, tag, open } = gatedProvider();
    try {
      const caller = new AbortController();
      const abandoned = provider.start?.(caller.signal);
      expect(await waitFor(() => pidsWithTag(tag).length > 0, 20_000)).toBe(true);
      caller.abort();
      const again = provider.start?.(AbortSignal.timeout(60_000));
      await expect(abandoned).rejects.toMatchObject({ code: 'CANCELLED' });
      open();
      await expect(again).resolves.toBeUndefined();
      expect((await provider.listTools()).length).toBeGreaterThan(0);
    } finally {
      await provider.close?.();
    }
  });
});

describe('a caller waiting for a restart', () => {
  it("who cancels gets CANCELLED, not the signal's bare reason", async () => {
    const provider = createMcpProvider('restarting', fixtureServer(['--die-after-list']), {
      runDirectory: run.path,
      // the restart waits a minute: the callers below wait for it
      restartPolicy: { backoffMs: [60_000], maxRestarts: 5, crashWindowMs: 60_000, healthyResetMs: 600_000 },
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(await waitFor(() => provider.status().state === 'restarting', 20_000)).toBe(true);
      const refresh = new AbortController();
      const refreshing = provider.refreshTools(refresh.signal);
      const ping = new AbortController();
      const pinging = provider.ping({ signal: ping.signal });
      refresh.abort();
      ping.abort(new Error('the user left'));
      for (const waiting of [refreshing, pinging]) {
        await expect(waiting).rejects.toMatchObject({
          code: 'CANCELLED',
          message: expect.stringMatching(/cancelled by the caller/),
        });
      }
    } finally {
      await provider.close?.();
    }
  });
});
