import type { ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, makeTempDir } from '../helpers/index.js';
import { startSwapAttacker, stopSwapAttacker } from '../helpers/swap-attacker.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

// The attacker keeps swapping a directory of the workspace for a symbolic link to a directory
// outside, and a file for a symbolic link to a file outside, while glob and the Node engine of
// grep walk: no name or line from outside may ever show.
let base: string;
let cleanup: () => Promise<void>;
let workspace: string;
let outside: string;
let provider: BuiltinProvider;
let attacker: ChildProcess | undefined;
const TOKEN = Math.random().toString(36).slice(2);
const SECRET_NAME = `secret-name-${TOKEN}.txt`;
const SECRET_LINE = `OUTSIDE-SECRET-${TOKEN}`;

beforeAll(async () => {
  ({ dir: base, cleanup } = await makeTempDir('tp-walk-race-'));
  workspace = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(workspace, 'swapdir'), { recursive: true });
  await mkdir(join(workspace, 'plain'), { recursive: true });
  await writeFile(join(workspace, 'swapdir', 'inside.txt'), 'needle in\n');
  await writeFile(join(workspace, 'plain', 'swapfile.txt'), 'needle plain\n');
  await mkdir(outside);
  await writeFile(join(outside, SECRET_NAME), `needle ${SECRET_LINE}\n`);
  provider = createBuiltinProvider({ workspace, grep: { ripgrep: false } });
  attacker = await startSwapAttacker([
    { path: join(workspace, 'swapdir'), target: outside, how: 'move' },
    { path: join(workspace, 'plain', 'swapfile.txt'), target: join(outside, SECRET_NAME), how: 'move' },
  ]);
});

afterAll(async () => {
  await stopSwapAttacker(attacker);
  await provider?.close?.();
  await cleanup();
});

async function race(tool: string, args: Record<string, unknown>, rounds: number): Promise<void> {
  const leaks: number[] = [];
  let found = 0;
  for (let i = 0; i < rounds; i++) {
    const result = await provider.execute(tool, args, context());
    const text = JSON.stringify(result);
    if (text.includes(SECRET_NAME) || text.includes(SECRET_LINE)) leaks.push(i);
    if (text.includes('inside.txt')) found++;
  }
  expect(leaks).toEqual([]);
  // The race ran: some walks saw the directory inside.
  expect(found).toBeGreaterThan(0);
}

describe('walks while a directory and a file are swapped for symbolic links to the outside', () => {
  it('grep (Node engine) never shows a line from outside', { timeout: 150_000 }, async () => {
    await race(
      'grep',
      { pattern: 'needle', output_mode: 'content' },
      Number(process.env.WALK_RACE_ROUNDS ?? 2500),
    );
  });

  it('glob never shows a name from outside', { timeout: 150_000 }, async () => {
    await race('glob', { pattern: '**/*.txt' }, Number(process.env.WALK_RACE_ROUNDS ?? 2500));
  });
});
