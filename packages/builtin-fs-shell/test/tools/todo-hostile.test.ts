import { describe, expect, it } from 'vitest';
import { context, failure, okText, useWorkspace } from '../helpers/index.js';

// todo_write and todo_read with names of Object.prototype members and huge lists.

const ws = useWorkspace();
const call = (name: string, args: unknown, session = 's1') =>
  ws.provider.execute(name, args as Record<string, unknown>, context(session));

describe('todo_write and todo_read on hostile lists', { timeout: 60_000 }, () => {
  it('keeps todos whose ids are __proto__, constructor and toString', async () => {
    const todos = ['__proto__', 'constructor', 'toString'].map((id) => ({
      id,
      content: `do ${id}`,
      status: 'pending',
    }));
    expect(okText(await call('todo_write', { todos }))).toBe(
      '[ ] __proto__. do __proto__\n[ ] constructor. do constructor\n[ ] toString. do toString',
    );
    const read = await call('todo_read', {});
    expect(read.ok && read.structured).toEqual({ todos });
    const twice = failure(
      await call('todo_write', {
        todos: [...todos, { id: '__proto__', content: 'again', status: 'pending' }],
      }),
    );
    expect(twice.code).toBe('INVALID_ARGUMENTS');
    expect(twice.message).toContain('todo id "__proto__" appears twice');
  });

  it('refuses an item key named __proto__ or constructor as a key items do not have', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const args = JSON.parse(
        `{"todos":[{"content":"a","status":"pending","${key}":{"status":"completed"}}]}`,
      );
      const error = failure(await call('todo_write', args));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain(key);
    }
    expect(okText(await call('todo_read', {}))).toBe('The task list is empty.');
  });

  it('refuses a million todos at the cap of 200, naming it', async () => {
    const todos = Array.from({ length: 1_000_000 }, (_, index) => ({
      content: `t${index}`,
      status: 'pending',
    }));
    const error = failure(await call('todo_write', { todos }));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/todos.*<=200 items/);
    expect(error.message.length).toBeLessThan(1000);
  });
});
