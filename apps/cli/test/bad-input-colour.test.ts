import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, finished, tempDir } from './helpers.js';

// FORCE_COLOR=false turns colour off as FORCE_COLOR=0 does, so
// `FORCE_COLOR=false toolplane tools list > file` writes no escape codes into the file.
let dir: { path: string; cleanup(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.cleanup());

/** `tools list` into a pipe, with NO_COLOR unset and FORCE_COLOR as given. */
async function listWith(forceColour: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: forceColour };
  delete env.NO_COLOR;
  const child = spawn(process.execPath, [BIN, 'tools', 'list'], { cwd: dir.path, env, stdio: 'pipe' });
  child.stdin.end();
  const outcome = await finished(child);
  expect(outcome.code).toBe(0);
  return outcome.stdout;
}

describe('FORCE_COLOR', () => {
  it('false and 0 turn colour off, 1 turns it on, into a pipe', async () => {
    const [off, zero, on] = await Promise.all([listWith('false'), listWith('0'), listWith('1')]);
    expect(off).toContain('read');
    expect(off).not.toContain('\u001b[');
    expect(zero).not.toContain('\u001b[');
    expect(on).toContain('\u001b[1m');
  });
});
