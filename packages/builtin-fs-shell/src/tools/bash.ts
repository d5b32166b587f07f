import { stat } from 'node:fs/promises';
import {
  type ExecResult,
  type Tool,
  ToolError,
  type ToolResult,
  defineTool,
  fail,
  ok,
} from '@toolplane/core';
import { z } from 'zod';
import { endWithin } from '../executor/end-within.js';
import { shownOutput } from './binary-output.js';
import type { ToolDeps } from './deps.js';

const input = z.object({
  command: z.string().min(1).describe('Shell command line, run with sh -c'),
  timeout: z.number().int().min(1).optional().describe('Timeout in milliseconds (default 60000)'),
  cwd: z
    .string()
    .optional()
    .describe('Working directory, relative to the workspace (default: the workspace)'),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Start the command and return a task id at once; read it with task_output, end it with task_stop',
    ),
  description: z.string().optional().describe('What the command does, in a few words'),
});

/**
 * Longest command line, in bytes: Linux refuses (`E2BIG`) a single argument of 32 pages
 * (`MAX_ARG_STRLEN`, 128 KiB) with its terminating NUL, whichever executor runs `sh -c`.
 */
export const MAX_COMMAND_BYTES = 128 * 1024 - 1;

/**
 * `stderr` without the executor's notes, and the notes: an executor that follows the contract
 * ends `stderr` with them, so they are cut off there and shown once, after the (possibly
 * summarised) output, even when the output itself is binary.
 */
export function splitNotes(result: ExecResult): {
  readonly stderr: string;
  readonly notes: readonly string[];
} {
  const notes = result.notes ?? [];
  if (notes.length === 0) return { stderr: result.stderr, notes };
  const block = `${notes.join('\n')}\n`;
  if (result.stderr.endsWith(block)) return { stderr: result.stderr.slice(0, -block.length), notes };
  // An executor that put its notes elsewhere in stderr, or not at all: add only the missing ones.
  return { stderr: result.stderr, notes: notes.filter((note) => !result.stderr.includes(note)) };
}

/** Formats a finished command for the model: output, the executor's notes, then how it ended. */
export function formatExecResult(result: ExecResult): string {
  const parts: string[] = [];
  if (result.stdout.length > 0) parts.push(shownOutput(result.stdout).replace(/\n$/, ''));
  const split = splitNotes(result);
  const stderr = [
    ...(split.stderr.length > 0 ? [shownOutput(split.stderr).replace(/\n$/, '')] : []),
    ...split.notes,
  ];
  if (stderr.length > 0) parts.push(`[stderr]\n${stderr.join('\n')}`);
  const notes: string[] = [];
  if (result.timedOut) notes.push('timed out; process tree killed');
  else if (result.cancelled) notes.push('cancelled; process tree killed');
  else if (result.exitCode !== null) notes.push(`exit code ${result.exitCode}`);
  else notes.push(`killed by ${result.signal ?? 'a signal'}`);
  if (result.truncated) notes.push('output truncated in the middle (head and tail kept)');
  parts.push(`[${notes.join('; ')}]`);
  return parts.join('\n');
}

/** Resolves the working directory argument of a shell tool. */
export async function resolveCwd(deps: ToolDeps, cwd: string | undefined): Promise<string> {
  const target = await deps.workspace.resolveOnDisk(cwd ?? '.', 'cwd');
  const info = await stat(target.path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new ToolError('INVALID_ARGUMENTS', `cwd "${cwd}" is not an existing directory in the workspace`);
  }
  return target.path;
}

/** A refusal when starting one more background task would pass a running-task limit. */
function tooManyTasks(deps: ToolDeps, sessionId: string): ToolResult | undefined {
  const { tasksMaxRunningPerSession, tasksMaxRunning } = deps.limits;
  const inSession = deps.tasks.runningCount(sessionId);
  if (inSession >= tasksMaxRunningPerSession) {
    return fail(
      'RATE_LIMITED',
      `this session already has ${inSession} background tasks running (the limit is ${tasksMaxRunningPerSession}); end one with task_stop or wait for one with task_output, then start this again`,
      { details: { running: inSession, limit: tasksMaxRunningPerSession } },
    );
  }
  const total = deps.tasks.runningCount();
  if (total >= tasksMaxRunning) {
    return fail(
      'RATE_LIMITED',
      `${total} background tasks are running across all sessions (the limit is ${tasksMaxRunning}); try again once some have ended, or run the command in the foreground`,
      { details: { running: total, limit: tasksMaxRunning } },
    );
  }
  return undefined;
}

/** The `bash` tool. */
export function createBashTool(deps: ToolDeps): Tool {
  const { bashDefaultTimeoutMs, bashMaxTimeoutMs } = deps.limits;
  return defineTool({
    name: 'bash',
    title: 'Run shell command',
    description: `Run a shell command in the workspace (timeout ${bashDefaultTimeoutMs / 1000}s by default, at most ${bashMaxTimeoutMs / 1000}s); long-running commands can run in the background.`,
    input,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    sideEffect: 'spawns',
    groups: ['runtime'],
    commandArgument: 'command',
    async execute(args, ctx): Promise<ToolResult> {
      if (args.timeout !== undefined && args.timeout > bashMaxTimeoutMs) {
        return fail(
          'INVALID_ARGUMENTS',
          `timeout ${args.timeout} ms is over the ${bashMaxTimeoutMs} ms maximum; pass a smaller timeout or use run_in_background`,
        );
      }
      if (args.command.includes('\0')) {
        return fail(
          'INVALID_ARGUMENTS',
          'command contains a null byte, which no shell command line can hold; remove it',
        );
      }
      const commandBytes = Buffer.byteLength(args.command, 'utf8');
      if (commandBytes > MAX_COMMAND_BYTES) {
        return fail(
          'INVALID_ARGUMENTS',
          `command is ${commandBytes} bytes; Linux passes at most ${MAX_COMMAND_BYTES} bytes as the one argument of sh -c: write the script to a file with write, then run that file`,
        );
      }
      const cwd = await resolveCwd(deps, args.cwd);
      // close() may have run while the cwd was checked (it also aborts the call's signal): it
      // could no longer stop this command.
      if (deps.isClosed()) {
        return fail(
          'PROVIDER_UNAVAILABLE',
          'the builtin provider closed before the command started; nothing ran',
        );
      }
      // An executor may start the command before it looks at the signal: a call cancelled
      // before it began must not run it at all.
      if (ctx.signal.aborted) {
        return fail('CANCELLED', 'the call was cancelled before the command started; nothing ran');
      }
      const executor = deps.executorFor(ctx);
      const env = { ...deps.commandEnv(), PWD: cwd };
      // The session's commands share one sandbox, released when the session is forgotten.
      const sandboxKey = ctx.session.id;
      deps.sandboxes.use(sandboxKey, executor);
      if (args.run_in_background === true) {
        const busy = tooManyTasks(deps, ctx.session.id);
        if (busy) return busy;
        const task = deps.tasks.start(ctx.session.id, executor, {
          command: args.command,
          cwd,
          env,
          sandboxKey,
          maxOutputBytes: deps.limits.taskMaxOutputBytes,
          ...(args.timeout === undefined ? {} : { timeoutMs: args.timeout }),
        });
        return ok(
          `Started background task ${task.id} (pid ${task.pid ?? 'unknown'}). Read its output with task_output, stop it with task_stop.`,
          {
            taskId: task.id,
            pid: task.pid,
          },
        );
      }
      const timeoutMs = args.timeout ?? bashDefaultTimeoutMs;
      const process = executor.start({
        command: args.command,
        cwd,
        env,
        sandboxKey,
        timeoutMs,
        signal: ctx.signal,
        maxOutputBytes: deps.limits.bashMaxOutputBytes,
      });
      const result = await endWithin(process, {
        timeoutMs,
        signal: ctx.signal,
        graceMs: deps.limits.executorGraceMs,
      });
      if (!result) {
        return fail(
          'EXECUTION_FAILED',
          `the ${executor.kind} executor did not report the end of the command within ${deps.limits.executorGraceMs} ms of its ${ctx.signal.aborted ? 'cancellation' : `${timeoutMs} ms timeout`}, nor after a kill; it may still be running there: check that executor`,
          { details: { executor: executor.kind } },
        );
      }
      const text = formatExecResult(result);
      const structured = {
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        truncated: result.truncated,
        durationMs: Math.round(result.durationMs),
        ...(result.notes && result.notes.length > 0 ? { notes: result.notes } : {}),
      };
      if (result.timedOut) {
        return fail(
          'TIMEOUT',
          `the command ran past its ${timeoutMs} ms timeout and its process tree was killed; pass a larger timeout or run_in_background`,
          {
            content: [{ type: 'text', text }],
            details: structured,
          },
        );
      }
      if (result.cancelled) {
        return fail('CANCELLED', 'the call was cancelled and the process tree was killed', {
          content: [{ type: 'text', text }],
        });
      }
      return ok(text, structured);
    },
  });
}
