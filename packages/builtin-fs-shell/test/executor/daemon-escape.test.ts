import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { context, eventually, failure, okText, useWorkspace } from '../helpers/index.js';
import { isAlive } from '../../src/executor/process-tree.js';

// Commands that daemonise: the process that would outlive the call is no longer a descendant of
// the shell (its parent exited, so it was re-parented to init) and, after setsid, not in the
// shell's process group either.

const ws = useWorkspace();
const started: number[] = [];

afterEach(() => {
  // Whatever a failing run left behind goes (only pids these tests recorded).
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

async function daemonPid(name: string): Promise<number> {
  const path = join(ws.dir, name);
  const ok = await eventually(async () => (await readFile(path, 'utf8').catch(() => '')).trim() !== '');
  if (!ok) throw new Error(`the daemon of ${name} did not start`);
  const pid = Number((await readFile(path, 'utf8')).trim());
  started.push(pid);
  return pid;
}

const DAEMONS = {
  // Double fork, then a session of its own (the classic daemon).
  setsid: `(setsid sh -c 'echo $$ > setsid.pid; exec sleep 300' > /dev/null 2>&1 &)`,
  // Double fork only: re-parented to init, still in the shell's group until it leaves it.
  doubleFork: `( (sh -c 'echo $$ > double.pid; exec sleep 300' > /dev/null 2>&1 &) & )`,
  // nohup and a new session, output to a file.
  nohup: `(nohup setsid sh -c 'echo $$ > nohup.pid; exec sleep 300' > nohup.out 2>&1 &)`,
};

describe('processes that daemonise to escape the tree kill', () => {
  it('are killed when the foreground command ends', async () => {
    for (const [name, command] of Object.entries(DAEMONS)) {
      const file = command.match(/> (\w+\.pid)/)?.[1] as string;
      okText(
        await ws.provider.execute('bash', { command: `${command}; sleep 0.3; echo ${name}` }, context()),
      );
      const pid = await daemonPid(file);
      expect({ name, alive: isAlive(pid) }).toEqual({ name, alive: false });
    }
  });

  it('are killed on a timeout', async () => {
    const result = await ws.provider.execute(
      'bash',
      { command: `${DAEMONS.setsid}; sleep 300`, timeout: 1000 },
      context(),
    );
    expect(failure(result).code).toBe('TIMEOUT');
    expect(isAlive(await daemonPid('setsid.pid'))).toBe(false);
  });

  it('are killed by task_stop of a background task', async () => {
    const started = okText(
      await ws.provider.execute(
        'bash',
        { command: `${DAEMONS.setsid}; sleep 300`, run_in_background: true },
        context(),
      ),
    );
    const taskId = started.match(/task (\S+) /)?.[1] as string;
    const pid = await daemonPid('setsid.pid');
    expect(isAlive(pid)).toBe(true);
    okText(await ws.provider.execute('task_stop', { task_id: taskId }, context()));
    expect(isAlive(pid)).toBe(false);
  });
});
