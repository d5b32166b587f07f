// Long reliability runs, outside the test suite: pnpm --filter @toolplane/builtin-fs-shell soak
// SOAK_ROUNDS (default 3000) rounds of the symlink race and 200 process trees killed on timeout.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { createBuiltinProvider } from '../src/index.js';
import { isAlive } from '../src/executor/process-tree.js';

const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 3000);
const TREES = Number(process.env.SOAK_TREES ?? 200);

const ATTACKER = `
const fs = require('node:fs');
const [ws, outside] = process.argv.slice(1);
for (;;) {
  try { fs.renameSync(ws + '/swapdir', ws + '/swapdir.away'); } catch {}
  try { fs.symlinkSync(outside, ws + '/swapdir'); } catch {}
  try { fs.unlinkSync(ws + '/swapdir'); } catch {}
  try { fs.renameSync(ws + '/swapdir.away', ws + '/swapdir'); } catch { try { fs.rmSync(ws + '/swapdir.away', { recursive: true, force: true }); } catch {} }
  try { fs.symlinkSync(outside + '/secret.txt', ws + '/swapfile.link'); fs.renameSync(ws + '/swapfile.link', ws + '/swapfile'); } catch {}
  try { fs.writeFileSync(ws + '/swapfile.plain', 'plain'); fs.renameSync(ws + '/swapfile.plain', ws + '/swapfile'); } catch {}
}`;

async function race(base: string): Promise<boolean> {
  const workspace = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(join(workspace, 'swapdir'), { recursive: true });
  await mkdir(outside);
  const secret = `soak-secret-${Math.random().toString(36).slice(2)}`;
  await writeFile(join(outside, 'secret.txt'), secret);
  const provider = createBuiltinProvider({ workspace });
  const attacker = spawn(process.execPath, ['-e', ATTACKER, workspace, outside], { stdio: 'ignore' });
  let leaks = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const ctx = createToolContext({ session: { id: `soak-${i}` } });
    const read = await provider.execute('read', { path: 'swapfile' }, ctx);
    if (JSON.stringify(read).includes(secret)) leaks++;
    await provider.execute('write', { path: `swapdir/new-${i}.txt`, content: 'x' }, ctx);
    await provider.execute('write', { path: 'swapfile', content: 'x' }, ctx);
  }
  attacker.kill('SIGKILL');
  await provider.close?.();
  const outsideEntries = await readdir(outside);
  const intact = (await readFile(join(outside, 'secret.txt'), 'utf8')) === secret;
  const ok = leaks === 0 && outsideEntries.length === 1 && intact;
  console.log(
    `symlink race: ${ROUNDS} rounds, ${leaks} leaked reads, outside entries ${outsideEntries.join(',')}, secret intact ${intact}`,
  );
  return ok;
}

async function trees(base: string): Promise<boolean> {
  const provider = createBuiltinProvider({ workspace: base });
  let survivors = 0;
  for (let i = 0; i < TREES; i++) {
    const pidFile = `tree-${i}.pid`;
    await provider.execute(
      'bash',
      { command: `sh -c 'sleep 300 & echo $! > ${pidFile}; wait' & wait`, timeout: 1000 },
      createToolContext(),
    );
    const text = await readFile(join(base, pidFile), 'utf8').catch(() => '');
    const pid = Number(text.trim());
    if (pid > 0 && isAlive(pid)) survivors++;
  }
  await provider.close?.();
  console.log(`process trees: ${TREES} timed out, ${survivors} grandchildren survived`);
  return survivors === 0;
}

const base = await mkdtemp(join(tmpdir(), 'tp-soak-'));
try {
  const results = [await race(join(base, 'race')), await trees(base)];
  if (results.includes(false)) {
    console.log('SOAK FAILED');
    process.exitCode = 1;
  } else console.log('SOAK OK');
} finally {
  await rm(base, { recursive: true, force: true });
}
