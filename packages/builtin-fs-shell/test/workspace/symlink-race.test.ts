import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir } from '../helpers/index.js';
import { startSwapAttacker, stopSwapAttacker } from '../helpers/swap-attacker.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

// The attacker keeps swapping a directory and a file of the workspace for symbolic links to the
// outside, as fast as it can.
let base: string;
let cleanup: () => Promise<void>;
let workspace: string;
let outside: string;
let provider: BuiltinProvider;
let attacker: ChildProcess | undefined;
const SECRET = `race-secret-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  ({ dir: base, cleanup } = await makeTempDir('tp-race-'));
  workspace = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(workspace, 'swapdir'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), SECRET);
  await writeFile(join(workspace, 'swapfile'), 'plain');
  provider = createBuiltinProvider({ workspace });
});

afterAll(async () => {
  await stopSwapAttacker(attacker);
  await provider?.close?.();
  await cleanup();
});

describe('a symlink planted between check and use', () => {
  it('never lets a read or write reach outside, over many iterations', async () => {
    attacker = await startSwapAttacker([
      { path: join(workspace, 'swapdir'), target: outside, how: 'move' },
      {
        path: join(workspace, 'swapfile'),
        target: join(outside, 'secret.txt'),
        how: 'replace',
        content: 'plain',
      },
    ]);
    const leaks: string[] = [];
    let writes = 0;
    let refusals = 0;
    for (let i = 0; i < 300; i++) {
      const ctx = context(`race-${i}`);
      const read = await provider.execute('read', { path: 'swapfile' }, ctx);
      if (JSON.stringify(read).includes(SECRET)) leaks.push(`read ${i} returned the secret`);
      const written = await provider.execute(
        'write',
        { path: `swapdir/new-${i}.txt`, content: `pwned ${i}` },
        ctx,
      );
      const overwrite = await provider.execute('write', { path: 'swapfile', content: `pwned ${i}` }, ctx);
      for (const result of [written, overwrite]) {
        if (result.ok) writes++;
        else refusals++;
      }
    }
    await stopSwapAttacker(attacker);
    expect(leaks).toEqual([]);
    // Outside: still exactly the secret, unchanged; no file landed there, not even a temp file.
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    // The race really ran both ways (some calls went through, some were refused).
    expect(writes + refusals).toBe(600);
  });
});
