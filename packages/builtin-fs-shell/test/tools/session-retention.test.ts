// What a provider keeps of its sessions is bounded, so a host that serves sessions for months
// does not keep all of them: ended background tasks (each with up to 1 MiB of output) per
// session and in all, sessions' state, and the files each session remembers having read.
// Small limits here; the defaults are in DEFAULT_LIMITS.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, failure, makeTempDir, okText } from '../helpers/index.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';

describe('session retention', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let provider: BuiltinProvider;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-retention-'));
    provider = createBuiltinProvider({
      workspace: dir,
      limits: {
        tasksMaxFinished: 3,
        tasksMaxFinishedPerSession: 2,
        sessionsMax: 2,
        readRecordsPerSession: 2,
      },
    });
  });
  afterEach(async () => {
    await provider.close?.();
    await cleanup();
  });

  /** Starts `echo` in the background in `session` and waits for it to end; returns its id. */
  async function finishedTask(session: string, text: string): Promise<string> {
    const started = await provider.execute(
      'bash',
      { command: `echo ${text}`, run_in_background: true },
      context(session),
    );
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    expect(taskId).toMatch(/^task_/);
    const output = okText(
      await provider.execute(
        'task_output',
        { task_id: taskId, block: true, timeout: 60_000 },
        context(session),
      ),
    );
    expect(output).toContain(text);
    return taskId;
  }

  it('keeps the newest ended tasks, per session and across sessions', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await finishedTask(`s${i}`, `done-${i}`));
    // Three kept in all: the two oldest sessions' tasks are gone, with a clear answer.
    for (const [i, id] of ids.entries()) {
      const answer = await provider.execute(
        'task_output',
        { task_id: id, block: false },
        context(`s${i + 1}`),
      );
      if (i < 2) expect(failure(answer).message).toContain(`no background task "${id}" in this session`);
      else expect(okText(answer)).toContain(`done-${i + 1}`);
    }
    // Two kept per session: a session's third ended task pushes out its first.
    const mine = [
      await finishedTask('busy', 'a'),
      await finishedTask('busy', 'b'),
      await finishedTask('busy', 'c'),
    ];
    const listed = okText(await provider.execute('process', {}, context('busy')));
    expect(mine.map((id) => listed.includes(id))).toEqual([false, true, true]);
  });

  it('keeps the most recently used sessions and the most recently read files of each', async () => {
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(dir, name), `${name}\n`);
    const call = (tool: string, args: Record<string, unknown>, session: string) =>
      provider.execute(tool, args, context(session));
    const todo = (content: string) => ({ todos: [{ content, status: 'pending' }] });
    okText(await call('todo_write', todo('first'), 'one'));
    okText(await call('read', { path: 'a.txt' }, 'one'));
    okText(await call('todo_write', todo('second'), 'two'));
    okText(await call('todo_write', todo('third'), 'three'));
    // "one" was the least recently used of three sessions with room for two.
    expect(okText(await call('todo_read', {}, 'one'))).not.toContain('first');
    expect(failure(await call('edit', { path: 'a.txt', old_string: 'a', new_string: 'A' }, 'one')).code).toBe(
      'DENIED',
    );
    expect(okText(await call('todo_read', {}, 'three'))).toContain('third');
    // Two files remembered per session: the least recently read one must be read again.
    for (const name of ['a.txt', 'b.txt', 'c.txt']) okText(await call('read', { path: name }, 'three'));
    const denied = failure(await call('edit', { path: 'a.txt', old_string: 'a', new_string: 'A' }, 'three'));
    expect(denied).toMatchObject({ code: 'DENIED' });
    expect(denied.message).toContain('call read on it first');
    okText(await call('edit', { path: 'c.txt', old_string: 'c.txt', new_string: 'C' }, 'three'));
  });
});
