import { spawn } from 'node:child_process';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { ProcessLedger } from '../src/stdio/index.js';
import { fixture, pidsWithTag, tempDirectory, uniqueTag, waitFor, wrappedServer } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

function startParent(tag: string, runDirectory: string, mode: 'wait' | 'exit') {
  const child = spawn(
    process.execPath,
    ['--conditions=@toolplane/source', '--import', 'tsx', fixture('parent.ts'), tag, runDirectory, mode],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: fixture('..') },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      if (String(chunk).includes('READY')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`parent exited early (${code}): ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

describe('no orphans', () => {
  it('kills the old tree when a wrapped server restarts', async () => {
    const tag = uniqueTag();
    const provider = createMcpProvider('restarted', wrappedServer(tag), { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      await provider.execute('spawn_grandchild', { detached: true }, createToolContext());
      expect(await waitFor(() => pidsWithTag(tag).length === 4)).toBe(true);
      const before = pidsWithTag(tag);
      process.kill(provider.status().pid as number, 'SIGKILL'); // the outer wrapper only
      expect(
        await waitFor(() => {
          const now = pidsWithTag(tag);
          return (
            provider.status().state === 'ready' &&
            now.length === 3 &&
            now.every((pid) => !before.includes(pid))
          );
        }, 20_000),
      ).toBe(true);
    } finally {
      await provider.close?.();
    }
    expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
  }, 60_000);

  it('kills every tree when the parent gets SIGTERM mid-call', async () => {
    const tag = uniqueTag();
    const parent = startParent(tag, run.path, 'wait');
    await parent.ready;
    expect(pidsWithTag(tag).length).toBeGreaterThanOrEqual(7);
    parent.child.kill('SIGTERM');
    await parent.exited;
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  }, 60_000);

  it('kills every tree when the parent exits without closing', async () => {
    const tag = uniqueTag();
    const parent = startParent(tag, run.path, 'exit');
    await parent.ready.catch(() => {});
    await parent.exited;
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  }, 60_000);

  it('reaps what a parent killed with SIGKILL left, from the ledger, at the next start', async () => {
    const tag = uniqueTag();
    const ledgerDirectory = tempDirectory();
    try {
      const parent = startParent(tag, ledgerDirectory.path, 'wait');
      await parent.ready;
      parent.child.kill('SIGKILL'); // no exit hook runs
      await parent.exited;
      // Servers may end on stdin EOF; the setsid grandchild never does.
      expect(pidsWithTag(tag).length).toBeGreaterThanOrEqual(1);
      expect(new ProcessLedger(ledgerDirectory.path).reapStale()).toBe(1);
      expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
    } finally {
      ledgerDirectory.remove();
    }
  }, 60_000);
});
