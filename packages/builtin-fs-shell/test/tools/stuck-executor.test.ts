import type { ExecRequest, ExecResult, Executor } from '@toolplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, eventually, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

/**
 * An executor with a bug: `done` never settles whatever happens (timeout, abort, kill), and
 * `kill` answers or hangs as told. `finish` settles a command's `done` late, by hand.
 */
function stuckExecutor(killHangs = false) {
  const started: ExecRequest[] = [];
  const finishers: ((result: ExecResult) => void)[] = [];
  let kills = 0;
  const executor: Executor = {
    kind: 'stuck',
    start(request) {
      started.push(request);
      return {
        pid: undefined,
        done: new Promise<ExecResult>((resolve) => finishers.push(resolve)),
        kill: () => {
          kills++;
          return killHangs ? new Promise<void>(() => undefined) : Promise.resolve();
        },
      };
    },
  };
  const finish = (index: number) =>
    finishers[index]?.({
      exitCode: 0,
      signal: null,
      stdout: 'late\n',
      stderr: '',
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
    });
  return { executor, started, finish, kills: () => kills };
}

describe('an executor that never reports the end of a command', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-stuck-'));
  });
  afterEach(async () => {
    await provider?.close?.();
    provider = undefined;
    await cleanup();
  });
  const open = (executor: Executor, limits = {}) => {
    provider = createBuiltinProvider({
      workspace: dir,
      executor,
      tools: ['bash', 'task_output', 'task_stop', 'process'],
      limits: { executorGraceMs: 50, ...limits },
    });
    return provider;
  };

  it('fails a foreground call past its timeout and the grace, after one more kill', async () => {
    const stuck = stuckExecutor();
    const result = await open(stuck.executor).execute(
      'bash',
      { command: 'sleep 1', timeout: 100 },
      context(),
    );
    expect(textOf(result)).toMatch(
      /^EXECUTION_FAILED: the stuck executor did not report the end of the command within 50 ms of its 100 ms timeout, nor after a kill/,
    );
    expect(stuck.kills()).toBe(1);
  });

  it('answers a cancelled foreground call at once, and asks the executor to kill once more after the grace', async () => {
    const stuck = stuckExecutor(true);
    const controller = new AbortController();
    // The timeout is the longest allowed (ten minutes): only the abort can end this call in time.
    const pending = open(stuck.executor).execute(
      'bash',
      { command: 'sleep 1', timeout: 600_000 },
      context('s1', { signal: controller.signal }),
    );
    // Aborted once the executor has the command (an abort before that runs nothing).
    expect(await eventually(() => stuck.started.length === 1)).toBe(true);
    controller.abort(new Error('caller left'));
    expect(textOf(await pending)).toMatch(/^CANCELLED/);
    expect(await eventually(() => stuck.kills() === 1)).toBe(true);
  });

  it('gives a background task up past its timeout, frees its slot, and records a late end', async () => {
    const stuck = stuckExecutor();
    const tools = open(stuck.executor, { tasksMaxRunningPerSession: 1 });
    const started = await tools.execute(
      'bash',
      { command: 'serve', run_in_background: true, timeout: 100 },
      context(),
    );
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    const waited = await tools.execute('task_output', { task_id: taskId, timeout: 30_000 }, context());
    expect(okText(waited)).toMatch(
      /the stuck executor did not report the end of this task within 50 ms of its timeout/,
    );
    expect(waited.ok && waited.structured).toMatchObject({ status: 'failed' });
    // Its slot is free again.
    okText(await tools.execute('bash', { command: 'next', run_in_background: true }, context()));
    // The executor answers at last: the task shows how it really ended.
    stuck.finish(0);
    await new Promise((resolve) => setImmediate(resolve));
    const later = await tools.execute('task_output', { task_id: taskId, block: false }, context());
    expect(later.ok && later.structured).toMatchObject({ status: 'completed' });
  });

  it('fails task_stop whose kill never ends, and close() still returns', async () => {
    const stuck = stuckExecutor(true);
    const tools = open(stuck.executor);
    const started = await tools.execute('bash', { command: 'serve', run_in_background: true }, context());
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    const stopped = await tools.execute('task_stop', { task_id: taskId }, context());
    expect(textOf(stopped)).toMatch(
      new RegExp(`^EXECUTION_FAILED: the stuck executor did not confirm that task ${taskId} ended`),
    );
    // Another task, never stopped by hand: close() gives it up after the grace and returns.
    await tools.execute('bash', { command: 'serve', run_in_background: true }, context('s2'));
    await tools.close?.();
    provider = undefined;
    expect(stuck.started.map((request) => request.command)).toEqual(['serve', 'serve']);
  });
});
