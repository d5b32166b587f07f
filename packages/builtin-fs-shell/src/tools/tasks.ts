import { type Tool, type ToolResult, defineTool, fail, ok } from '@toolplane/core';
import { z } from 'zod';
import type { BackgroundTask } from '../tasks/task-manager.js';
import { shownOutput } from './binary-output.js';
import type { ToolDeps } from './deps.js';

function describeTask(task: BackgroundTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    command: task.command,
    pid: task.pid,
    executor: task.executorKind,
    startedAt: new Date(task.startedAt).toISOString(),
    ...(task.endedAt === undefined ? {} : { endedAt: new Date(task.endedAt).toISOString() }),
    ...(task.result ? { exitCode: task.result.exitCode } : {}),
  };
}

function headline(task: BackgroundTask): string {
  const exit = task.result && task.result.exitCode !== null ? `, exit code ${task.result.exitCode}` : '';
  return `Task ${task.id}: ${task.status}${exit}`;
}

function notFound(id: string): ToolResult {
  return fail(
    'INVALID_ARGUMENTS',
    `no background task "${id}" in this session; call process to list your tasks`,
  );
}

/** The `task_output` tool. */
export function createTaskOutputTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'task_output',
    title: 'Background task output',
    description:
      'Output and status of a background task; by default waits for it to finish (up to timeout ms).',
    input: z.object({
      task_id: z.string().describe('The id bash returned'),
      block: z.boolean().optional().describe('Wait for the task to finish (default true)'),
      timeout: z
        .number()
        .int()
        .min(0)
        .max(600_000)
        .optional()
        .describe('Longest wait in milliseconds (default 30000)'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    sideEffect: 'read',
    groups: ['runtime'],
    async execute(args, ctx): Promise<ToolResult> {
      const task = deps.tasks.get(ctx.session.id, args.task_id);
      if (!task) return notFound(args.task_id);
      if (args.block !== false) await deps.tasks.wait(task, args.timeout ?? 30_000, ctx.signal);
      const output = shownOutput(task.output.toString());
      const tail = task.status === 'running' ? ' (still running)' : '';
      const text = `${headline(task)}${tail}\n${output.length > 0 ? output : '(no output yet)'}`;
      if (ctx.signal.aborted && task.status === 'running') {
        return fail(
          'CANCELLED',
          `the wait for ${task.id} was cancelled; the task keeps running (task_stop ends it)`,
          { content: [{ type: 'text', text }] },
        );
      }
      return ok(text, describeTask(task));
    },
  });
}

/** The `task_stop` tool. */
export function createTaskStopTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'task_stop',
    title: 'Stop background task',
    description: 'Stop a background task and every process it started.',
    input: z.object({ task_id: z.string().describe('The id bash returned') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    sideEffect: 'mutating',
    groups: ['runtime'],
    async execute(args, ctx): Promise<ToolResult> {
      const task = deps.tasks.get(ctx.session.id, args.task_id);
      if (!task) return notFound(args.task_id);
      const wasRunning = task.status === 'running';
      if (!(await deps.tasks.stop(task))) {
        return fail(
          'EXECUTION_FAILED',
          `the ${task.executorKind} executor did not confirm that task ${task.id} ended; it no longer counts as running here, but may still run there: check that executor`,
          { details: describeTask(task) },
        );
      }
      return ok(
        wasRunning ? `Stopped task ${task.id}` : `${headline(task)} (it was not running)`,
        describeTask(task),
      );
    },
  });
}

/** The `process` tool: the session's background tasks. */
export function createProcessTool(deps: ToolDeps): Tool {
  return defineTool({
    name: 'process',
    title: 'List background tasks',
    description: 'List the background tasks of this session with their status.',
    input: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    sideEffect: 'read',
    groups: ['runtime'],
    execute(_args, ctx): ToolResult {
      const tasks = deps.tasks.list(ctx.session.id);
      if (tasks.length === 0) return ok('No background tasks in this session.', { tasks: [] });
      const lines = tasks.map(
        (task) => `${headline(task)}  pid ${task.pid ?? '?'}  $ ${task.command.slice(0, 120)}`,
      );
      return ok(lines.join('\n'), { tasks: tasks.map(describeTask) });
    },
  });
}
