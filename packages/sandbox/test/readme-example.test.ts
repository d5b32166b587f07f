import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createDockerExecutor } from '../src/index.js';
import { allowedSkip, dockerProblem } from './helpers/engines.js';

const skip = allowedSkip(await dockerProblem());

// The example of the README, as written there, with its outputs checked.
it.skipIf(skip !== undefined)('runs the README example', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'project-'));
  chownSync(workspace, 65534, 65534);
  try {
    const executor = createDockerExecutor({ workspace });
    const request = { cwd: workspace, env: {}, sandboxKey: 'session-1' };
    const made = await executor.start({ ...request, command: 'echo hello > note.txt && id -u' }).done;
    const denied = await executor.start({ ...request, command: 'echo x > /etc/passwd' }).done;
    expect(made.stdout).toBe('65534\n');
    expect(existsSync(join(workspace, 'note.txt'))).toBe(true);
    expect(denied.stderr.trimEnd().split('\n').at(-1)).toMatch(/^\[sandbox\] a write hit a read-only path: /);
    await executor.release('session-1');
    await executor.close();
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
