import { access } from 'node:fs/promises';
import type { ToolResult } from '@toolplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, makeTempDir, okText, textOf } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

describe('limits on running background tasks', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-task-limits-'));
  });
  afterEach(async () => {
    await provider?.close?.();
    provider = undefined;
    await cleanup();
  });
  const open = (limits: { tasksMaxRunningPerSession: number; tasksMaxRunning: number }) => {
    provider = createBuiltinProvider({
      workspace: dir,
      tools: ['bash', 'task_stop', 'task_output', 'process'],
      limits,
    });
    return provider;
  };
  const taskIdOf = (result: ToolResult): string => {
    if (!result.ok) throw new Error(`expected a started task, got ${textOf(result)}`);
    return (result.structured as { taskId: string }).taskId;
  };

  it('refuses one task over the session limit, starts nothing, and frees the slot when one ends', async () => {
    const tools = open({ tasksMaxRunningPerSession: 2, tasksMaxRunning: 10 });
    const sleeper = { command: 'sleep 30', run_in_background: true };
    const first = taskIdOf(await tools.execute('bash', sleeper, context('s1')));
    taskIdOf(await tools.execute('bash', sleeper, context('s1')));
    const refused = await tools.execute(
      'bash',
      { command: 'touch ran', run_in_background: true },
      context('s1'),
    );
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.code).toBe('RATE_LIMITED');
    expect(textOf(refused)).toMatch(/already has 2 background tasks running \(the limit is 2\).*task_stop/);
    expect(!refused.ok && refused.error.details).toEqual({ running: 2, limit: 2 });
    // Nothing ran for the refused call, and the session lists only its two tasks.
    const listed = okText(await tools.execute('process', {}, context('s1')));
    expect(listed.match(/task_/g)?.length).toBe(2);
    await expect(access(`${dir}/ran`)).rejects.toThrow();
    // Another session has its own allowance.
    taskIdOf(await tools.execute('bash', sleeper, context('s2')));
    // A stopped task frees its slot; so does one that ends by itself.
    okText(await tools.execute('task_stop', { task_id: first }, context('s1')));
    const quick = taskIdOf(
      await tools.execute('bash', { command: 'true', run_in_background: true }, context('s1')),
    );
    okText(await tools.execute('task_output', { task_id: quick, timeout: 10_000 }, context('s1')));
    taskIdOf(await tools.execute('bash', sleeper, context('s1')));
    expect(textOf(await tools.execute('bash', sleeper, context('s1')))).toMatch(/^RATE_LIMITED/);
  });

  it('refuses a task over the limit of all sessions together, naming it', async () => {
    const tools = open({ tasksMaxRunningPerSession: 5, tasksMaxRunning: 2 });
    const sleeper = { command: 'sleep 30', run_in_background: true };
    taskIdOf(await tools.execute('bash', sleeper, context('a')));
    const second = taskIdOf(await tools.execute('bash', sleeper, context('b')));
    const refused = await tools.execute('bash', sleeper, context('c'));
    expect(textOf(refused)).toMatch(
      /^RATE_LIMITED: 2 background tasks are running across all sessions \(the limit is 2\)/,
    );
    // Foreground commands are not background tasks: they still run.
    expect(okText(await tools.execute('bash', { command: 'echo fine' }, context('c')))).toBe(
      'fine\n[exit code 0]',
    );
    okText(await tools.execute('task_stop', { task_id: second }, context('b')));
    taskIdOf(await tools.execute('bash', sleeper, context('c')));
  });

  it('takes the limits as options, checked like the others', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        createBuiltinProvider({ workspace: dir, limits: { tasksMaxRunningPerSession: bad } }),
      ).toThrow(/limits\.tasksMaxRunningPerSession/);
    }
  });
});
