import type { ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir } from '../helpers/index.js';
import { startSwapAttacker, stopSwapAttacker } from '../helpers/swap-attacker.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

// The attacker keeps swapping a directory of the workspace with a symbolic link to a directory
// outside while list walks it: the names outside must never show.
let base: string;
let cleanup: () => Promise<void>;
let workspace: string;
let outside: string;
let provider: BuiltinProvider;
let attacker: ChildProcess | undefined;
const SECRET_NAME = `secret-name-${Math.random().toString(36).slice(2)}.txt`;

beforeAll(async () => {
  ({ dir: base, cleanup } = await makeTempDir('tp-list-race-'));
  workspace = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(workspace, 'swapdir'), { recursive: true });
  await writeFile(join(workspace, 'swapdir', 'inside.txt'), 'in');
  await mkdir(outside);
  await writeFile(join(outside, SECRET_NAME), 'out');
  provider = createBuiltinProvider({ workspace });
});

afterAll(async () => {
  await stopSwapAttacker(attacker);
  await provider?.close?.();
  await cleanup();
});

describe('list while a directory is swapped for a symbolic link to the outside', () => {
  it('never shows a name from outside, over many iterations', { timeout: 120_000 }, async () => {
    attacker = await startSwapAttacker([{ path: join(workspace, 'swapdir'), target: outside, how: 'move' }]);
    const leaks: string[] = [];
    let listed = 0;
    for (let i = 0; i < Number(process.env.LIST_RACE_ROUNDS ?? 1500); i++) {
      for (const args of [{ path: 'swapdir' }, { path: '.', depth: 2 }]) {
        const result = await provider.execute('list', args, context());
        if (JSON.stringify(result).includes(SECRET_NAME))
          leaks.push(`list ${JSON.stringify(args)} round ${i}`);
        if (result.ok) listed++;
      }
    }
    await stopSwapAttacker(attacker);
    expect(leaks).toEqual([]);
    // The race ran: some lists went through.
    expect(listed).toBeGreaterThan(0);
  });
});
