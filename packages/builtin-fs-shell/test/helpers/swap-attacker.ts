// A separate process that keeps swapping parts of a workspace for symbolic links to the outside,
// as fast as it can, for the race tests (a check-then-use gap shows as a leak over many rounds).
import { type ChildProcess, spawn } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { expect } from 'vitest';
import { eventually } from './index.js';

/**
 * One path the attacker swaps. `move`: the entry is renamed away, a link takes its place, then
 * the link goes and the entry comes back. `replace`: a link and then a plain file (holding
 * `content`) are renamed over the path, so it never stops existing.
 */
export interface Swap {
  readonly path: string;
  readonly target: string;
  readonly how: 'move' | 'replace';
  readonly content?: string;
}

// Every swap's first half, then every swap's second half: all paths are links at once.
const ATTACKER = `
const fs = require('node:fs');
const swaps = JSON.parse(process.argv[1]);
const tryTo = (step) => { try { step(); } catch {} };
for (;;) {
  for (const s of swaps) {
    if (s.how === 'move') {
      tryTo(() => fs.renameSync(s.path, s.path + '.away'));
      tryTo(() => fs.symlinkSync(s.target, s.path));
    } else {
      tryTo(() => { fs.symlinkSync(s.target, s.path + '.link'); fs.renameSync(s.path + '.link', s.path); });
    }
  }
  for (const s of swaps) {
    if (s.how === 'move') {
      tryTo(() => fs.unlinkSync(s.path));
      // A tool may have made the path again meanwhile (write creates directories): then the
      // entry moved away goes.
      try { fs.renameSync(s.path + '.away', s.path); } catch { tryTo(() => fs.rmSync(s.path + '.away', { recursive: true, force: true })); }
    } else {
      tryTo(() => { fs.writeFileSync(s.path + '.plain', s.content ?? ''); fs.renameSync(s.path + '.plain', s.path); });
    }
  }
}
`;

/** Starts the attacker on absolute paths and waits until its first swap shows. */
export async function startSwapAttacker(swaps: readonly Swap[]): Promise<ChildProcess> {
  const attacker = spawn(process.execPath, ['-e', ATTACKER, JSON.stringify(swaps)], { stdio: 'ignore' });
  // Node takes a moment to start: the rounds count once the swapping has begun.
  const first = swaps[0] as Swap;
  const swapping = await eventually(async () =>
    Boolean((await lstat(first.path).catch(() => undefined))?.isSymbolicLink()),
  );
  expect(swapping).toBe(true);
  return attacker;
}

/** Stops the attacker and waits for it to be gone. */
export async function stopSwapAttacker(attacker: ChildProcess | undefined): Promise<void> {
  if (attacker === undefined || attacker.exitCode !== null || attacker.signalCode !== null) return;
  const exited = new Promise((resolve) => attacker.once('exit', resolve));
  attacker.kill('SIGKILL');
  await exited;
}
