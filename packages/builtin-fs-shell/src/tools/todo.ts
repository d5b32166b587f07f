import { type Tool, ToolError, type ToolResult, defineTool, ok } from '@toolplane/core';
import { z } from 'zod';
import type { TodoItem } from '../session/todos.js';
import type { ToolDeps } from './deps.js';

// Strict: a misspelt key (`state` for `status`, `text` for `content`) is refused, not dropped.
const item = z.strictObject({
  id: z.string().min(1).optional().describe('Stable id (default: position in the list)'),
  content: z.string().min(1).describe('What to do'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  priority: z.enum(['high', 'medium', 'low']).optional(),
});

const MARK: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

function render(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'The task list is empty.';
  return todos
    .map(
      (todo) =>
        `${MARK[todo.status]} ${todo.id}. ${todo.content}${todo.priority ? ` (${todo.priority})` : ''}`,
    )
    .join('\n');
}

/** The `todo_write` tool: replaces the session's task list. */
export function createTodoWriteTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'todo_write',
    title: 'Write task list',
    description: 'Replace your task list for this session (pass the whole list each time).',
    input: z.object({ todos: z.array(item).max(200).describe('The complete task list') }),
    annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    sideEffect: 'none',
    groups: ['todo'],
    execute(args, ctx): ToolResult {
      const ids = new Set<string>();
      const todos: TodoItem[] = args.todos.map((todo, i) => {
        const id = todo.id ?? String(i + 1);
        if (ids.has(id))
          throw new ToolError(
            'INVALID_ARGUMENTS',
            `todo id "${id}" appears twice; give every item its own id`,
          );
        ids.add(id);
        return {
          id,
          content: todo.content,
          status: todo.status,
          ...(todo.priority ? { priority: todo.priority } : {}),
        };
      });
      deps.sessions.get(ctx.session.id).todos = todos;
      return ok(render(todos), { todos });
    },
  });
}

/** The `todo_read` tool. */
export function createTodoReadTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'todo_read',
    title: 'Read task list',
    description: 'Show your task list for this session.',
    input: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    sideEffect: 'none',
    groups: ['todo'],
    execute(_args, ctx): ToolResult {
      const todos = deps.sessions.get(ctx.session.id).todos;
      return ok(render(todos), { todos });
    },
  });
}
