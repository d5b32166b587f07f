import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecRequest, Executor } from '@toolplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, eventually, makeTempDir, okText, textOf } from '../helpers/index.js';
import { createHostExecutor } from '../../src/executor/host-executor.js';
import { isAlive } from '../../src/executor/process-tree.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

describe('bash and background tasks', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-bash-'));
    provider = createBuiltinProvider({
      workspace: dir,
      env: { TOOLPLANE_MARK: 'set' },
      limits: { bashMaxOutputBytes: 2048 },
    });
  });
  afterEach(async () => {
    await provider.close?.();
    await cleanup();
  });
  const bash = (args: Record<string, unknown>, session = 's1', init = {}) =>
    provider.execute('bash', args, context(session, init));

  it('runs in the workspace, reports the exit code and stderr', async () => {
    const result = await bash({ command: 'pwd; echo err >&2; exit 4' });
    expect(okText(result)).toBe(`${dir}\n[stderr]\nerr\n[exit code 4]`);
    expect(result.ok && result.structured).toMatchObject({ exitCode: 4, timedOut: false });
  });

  it('runs in a cwd inside the workspace and refuses one outside', async () => {
    await bash({ command: 'mkdir -p sub/dir' });
    expect(okText(await bash({ command: 'pwd', cwd: 'sub/dir' }))).toBe(
      `${join(dir, 'sub/dir')}\n[exit code 0]`,
    );
    expect(textOf(await bash({ command: 'pwd', cwd: '..' }))).toMatch(/^DENIED: cwd/);
    expect(textOf(await bash({ command: 'pwd', cwd: 'missing' }))).toMatch(/not an existing directory/);
  });

  it('passes only allow-listed host variables, plus configured ones', async () => {
    process.env.TP_FAKE_API_KEY = `sk-fake-${Math.random().toString(36).slice(2)}`;
    try {
      const text = okText(
        await bash({
          command:
            'echo "key=[$TP_FAKE_API_KEY] mark=[$TOOLPLANE_MARK] path=[$(test -n "$PATH" && echo yes)]"',
        }),
      );
      expect(text).toBe('key=[] mark=[set] path=[yes]\n[exit code 0]');
    } finally {
      delete process.env.TP_FAKE_API_KEY;
    }
  });

  it('keeps head and tail of long output', async () => {
    const text = okText(await bash({ command: 'echo FIRST; seq 1 100000; echo LAST' }));
    expect(text.startsWith('FIRST\n')).toBe(true);
    expect(text).toMatch(/LAST\n\[exit code 0; output truncated in the middle/);
  });

  it('times out with TIMEOUT and kills grandchildren', async () => {
    const result = await bash({ command: 'sleep 300 & echo $! > child.pid; wait', timeout: 3000 });
    expect(textOf(result)).toMatch(/^TIMEOUT: the command ran past its 3000 ms timeout/);
    const pid = Number((await readFile(join(dir, 'child.pid'), 'utf8')).trim());
    expect(isAlive(pid)).toBe(false);
  });

  it('is cancelled by the call signal, killing the tree', async () => {
    const controller = new AbortController();
    const pending = bash({ command: 'sleep 300 & echo $! > child.pid; wait' }, 's1', {
      signal: controller.signal,
    });
    expect(
      await eventually(
        async () => (await readFile(join(dir, 'child.pid'), 'utf8').catch(() => '')).trim() !== '',
      ),
    ).toBe(true);
    controller.abort();
    expect(textOf(await pending)).toMatch(/^CANCELLED/);
    const pid = Number((await readFile(join(dir, 'child.pid'), 'utf8')).trim());
    expect(isAlive(pid)).toBe(false);
  });

  it('refuses bad input', async () => {
    expect(textOf(await bash({ command: '' }))).toMatch(/INVALID_ARGUMENTS/);
    expect(textOf(await bash({ command: 'true', timeout: 10_000_000 }))).toMatch(
      /over the 600000 ms maximum/,
    );
    expect(textOf(await bash({ command: 'true', timeout: -1 }))).toMatch(/INVALID_ARGUMENTS/);
    expect(textOf(await bash({}))).toMatch(/INVALID_ARGUMENTS/);
  });

  it('runs in the background: task_output blocks or not, task_stop kills the tree, process lists', async () => {
    const started = await bash({
      command: 'echo started; sleep 300 & echo $! > bg.pid; wait',
      run_in_background: true,
    });
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    expect(okText(started)).toMatch(/^Started background task task_/);
    expect(
      await eventually(
        async () => (await readFile(join(dir, 'bg.pid'), 'utf8').catch(() => '')).trim() !== '',
      ),
    ).toBe(true);
    const peek = await provider.execute('task_output', { task_id: taskId, block: false }, context());
    expect(okText(peek)).toMatch(/: running \(still running\)\nstarted/);
    const waited = await provider.execute('task_output', { task_id: taskId, timeout: 200 }, context());
    expect(okText(waited)).toMatch(/still running/);
    expect(okText(await provider.execute('process', {}, context()))).toContain(taskId);
    // Other sessions see nothing.
    expect(textOf(await provider.execute('task_output', { task_id: taskId }, context('other')))).toMatch(
      /no background task/,
    );
    expect(okText(await provider.execute('process', {}, context('other')))).toBe(
      'No background tasks in this session.',
    );
    const stopped = await provider.execute('task_stop', { task_id: taskId }, context());
    expect(okText(stopped)).toBe(`Stopped task ${taskId}`);
    const pid = Number((await readFile(join(dir, 'bg.pid'), 'utf8')).trim());
    expect(isAlive(pid)).toBe(false);
    expect(okText(await provider.execute('task_output', { task_id: taskId }, context()))).toMatch(
      /: stopped/,
    );
    expect(okText(await provider.execute('task_stop', { task_id: taskId }, context()))).toMatch(
      /it was not running/,
    );
  });

  it('reports a finished background task with its exit code', async () => {
    const started = await bash({ command: 'echo out; exit 2', run_in_background: true });
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    const result = await provider.execute('task_output', { task_id: taskId, timeout: 20_000 }, context());
    expect(okText(result)).toBe(`Task ${taskId}: failed, exit code 2\nout\n`);
  });

  it('stops background tasks when the provider closes or the session is forgotten', async () => {
    await bash({ command: 'sleep 300 & echo $! > a.pid; wait', run_in_background: true }, 'gone');
    expect(
      await eventually(
        async () => (await readFile(join(dir, 'a.pid'), 'utf8').catch(() => '')).trim() !== '',
      ),
    ).toBe(true);
    await provider.forgetSession('gone');
    expect(isAlive(Number((await readFile(join(dir, 'a.pid'), 'utf8')).trim()))).toBe(false);
    await bash({ command: 'sleep 300 & echo $! > b.pid; wait', run_in_background: true });
    expect(
      await eventually(
        async () => (await readFile(join(dir, 'b.pid'), 'utf8').catch(() => '')).trim() !== '',
      ),
    ).toBe(true);
    await provider.close?.();
    expect(isAlive(Number((await readFile(join(dir, 'b.pid'), 'utf8')).trim()))).toBe(false);
  });

  it('uses ctx.services.executor when the call has one', async () => {
    const seen: ExecRequest[] = [];
    const host = createHostExecutor();
    const recording: Executor = {
      kind: 'recording',
      start(request) {
        seen.push(request);
        return host.start(request);
      },
    };
    const text = okText(
      await provider.execute(
        'bash',
        { command: 'echo via-service' },
        context('s1', { services: { executor: recording } }),
      ),
    );
    expect(text).toBe('via-service\n[exit code 0]');
    expect(seen.map((request) => request.command)).toEqual(['echo via-service']);
    await host.close?.();
  });
});
