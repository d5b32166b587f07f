import { type ChildProcess, spawn } from 'node:child_process';
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, eventually, makeTempDir } from '../../test/helpers.js';
import { type BuiltinProvider, createBuiltinProvider } from '../provider.js';

// The attacker keeps swapping a directory of the workspace with a symbolic link to a directory
// outside while list walks it: the names outside must never show.
const ATTACKER = `
const fs = require('node:fs');
const [ws, outside] = process.argv.slice(1);
const dir = ws + '/swapdir';
for (;;) {
  try { fs.renameSync(dir, ws + '/swapdir.away'); } catch {}
  try { fs.symlinkSync(outside, dir); } catch {}
  try { fs.unlinkSync(dir); } catch {}
  try { fs.renameSync(ws + '/swapdir.away', dir); } catch {}
}
`;

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
  attacker?.kill('SIGKILL');
  await provider?.close?.();
  await cleanup();
});

describe('list while a directory is swapped for a symbolic link to the outside', () => {
  it('never shows a name from outside, over many iterations', { timeout: 120_000 }, async () => {
    attacker = spawn(process.execPath, ['-e', ATTACKER, workspace, outside], { stdio: 'ignore' });
    // Node takes a moment to start: the rounds count once the swapping has begun.
    const swapping = await eventually(async () =>
      Boolean((await lstat(join(workspace, 'swapdir')).catch(() => undefined))?.isSymbolicLink()),
    );
    expect(swapping).toBe(true);
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
    attacker.kill('SIGKILL');
    await new Promise((resolve) => attacker?.once('exit', resolve));
    expect(leaks).toEqual([]);
    // The race ran: some lists went through.
    expect(listed).toBeGreaterThan(0);
  });
});
