import {
  type BwrapExecutor,
  type DockerExecutor,
  createBwrapExecutor,
  createDockerExecutor,
} from '@toolplane/sandbox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuiltinProvider, createBuiltinProvider } from '@toolplane/builtin-fs-shell';
import { context, eventually, okText, textOf } from './helpers/session.js';
import { sandboxProblem, sandboxWorkspace } from './helpers/sandbox-engines.js';

const dockerSkip = await sandboxProblem('docker', (workspace) => createDockerExecutor({ workspace }));
const bwrapSkip = await sandboxProblem('bwrap', (workspace) => createBwrapExecutor({ workspace }));

const READ_ONLY_NOTE = '[sandbox] a write hit a read-only path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe.skipIf(dockerSkip !== undefined)('the bash tool on the docker sandbox', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let executor: DockerExecutor;
  let provider: BuiltinProvider;
  beforeEach(async () => {
    ({ dir, cleanup } = await sandboxWorkspace());
    executor = createDockerExecutor({ workspace: dir, removeLeftovers: false });
    provider = createBuiltinProvider({ workspace: dir, executor });
  });
  afterEach(async () => {
    await provider.close?.();
    await executor.close();
    await cleanup();
  });
  const bash = (session: string, args: Record<string, unknown>) =>
    provider.execute('bash', args, context(session));
  const taskOutput = (session: string, taskId: string, block = true) =>
    provider.execute('task_output', { task_id: taskId, block, timeout: 20_000 }, context(session));

  it("runs a session's commands in one container and another session's in another", async () => {
    const first = okText(await bash('alpha', { command: 'hostname; echo alpha > /tmp/mine' }));
    const again = okText(await bash('alpha', { command: 'hostname; cat /tmp/mine' }));
    const other = okText(await bash('beta', { command: 'hostname; cat /tmp/mine' }));
    const [alphaHost] = first.split('\n');
    expect(again.split('\n').slice(0, 2)).toEqual([alphaHost, 'alpha']);
    expect(other.split('\n')[0]).not.toBe(alphaHost);
    expect(other).toMatch(/No such file or directory/);
    expect(executor.containerCount).toBe(2);
  });

  it("runs a background task in its session's container and the release kills it", async () => {
    const started = await bash('alpha', {
      command: 'hostname > /tmp/task-host; echo started; sleep 300',
      run_in_background: true,
    });
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    expect(typeof taskId).toBe('string');
    expect(
      await eventually(async () => textOf(await taskOutput('alpha', taskId, false)).includes('started')),
    ).toBe(true);
    const hostOfTask = okText(await bash('alpha', { command: 'cat /tmp/task-host' })).split('\n')[0];
    const hostOfSession = okText(await bash('alpha', { command: 'hostname' })).split('\n')[0];
    expect(hostOfTask).toBe(hostOfSession);
    await executor.release('alpha');
    const ended = await taskOutput('alpha', taskId);
    expect(ended.ok && (ended.structured as { status: string }).status).not.toBe('running');
    expect(textOf(ended)).toContain('[sandbox] the sandbox container was removed while the command ran');
    expect(executor.containerCount).toBe(0);
  });

  it("releases a session's container when the session is forgotten, and all of them on close", async () => {
    okText(await bash('alpha', { command: 'true' }));
    okText(await bash('beta', { command: 'true' }));
    okText(await bash('gamma', { command: 'sleep 300', run_in_background: true }));
    expect(executor.containerCount).toBe(3);
    await provider.forgetSession('alpha');
    expect(executor.containerCount).toBe(2);
    await provider.close?.();
    expect(executor.containerCount).toBe(0);
  });

  it("shows the sandbox's note to the model once, after the output", async () => {
    const result = await bash('alpha', { command: 'echo before; echo x > /etc/passwd' });
    const text = okText(result);
    expect(occurrences(text, READ_ONLY_NOTE)).toBe(1);
    const lines = text.split('\n');
    expect(lines[0]).toBe('before');
    expect(lines.at(-2)).toMatch(/^\[sandbox\] a write hit a read-only path: /);
    expect(lines.at(-1)).toMatch(/^\[exit code [1-9]/);
    expect(result.ok && (result.structured as { notes?: string[] }).notes?.[0]).toMatch(
      /^\[sandbox\] a write/,
    );
  });

  it("ends a background task's output with the sandbox's note once", async () => {
    const started = await bash('alpha', { command: 'echo x > /usr/probe', run_in_background: true });
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    const text = textOf(await taskOutput('alpha', taskId));
    expect(occurrences(text, READ_ONLY_NOTE)).toBe(1);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^\[sandbox\] a write hit a read-only path: /);
  });
});

describe.skipIf(bwrapSkip !== undefined)('the bash tool on the bwrap sandbox', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let executor: BwrapExecutor;
  let provider: BuiltinProvider;
  beforeEach(async () => {
    ({ dir, cleanup } = await sandboxWorkspace());
    executor = createBwrapExecutor({ workspace: dir });
    provider = createBuiltinProvider({ workspace: dir, executor });
  });
  afterEach(async () => {
    await provider.close?.();
    await executor.close();
    await cleanup();
  });
  const bash = (session: string, args: Record<string, unknown>) =>
    provider.execute('bash', args, context(session));

  it('runs commands in a jail with the workspace at /workspace, each with its own /tmp', async () => {
    expect(okText(await bash('alpha', { command: 'pwd; hostname; echo x > /tmp/mine' }))).toBe(
      '/workspace\nsandbox\n[exit code 0]',
    );
    expect(textOf(await bash('alpha', { command: 'cat /tmp/mine' }))).toMatch(/No such file or directory/);
  });

  it("shows the sandbox's note to the model once", async () => {
    const text = okText(await bash('alpha', { command: 'echo x > /usr/probe' }));
    expect(occurrences(text, READ_ONLY_NOTE)).toBe(1);
    expect(text.split('\n').at(-2)).toMatch(/^\[sandbox\] a write hit a read-only path: /);
  });

  it('stops a background task, jail and all, when its session is forgotten', async () => {
    const started = await bash('alpha', { command: 'echo started; sleep 300', run_in_background: true });
    const { taskId, pid } = (started.ok && started.structured) as { taskId: string; pid: number };
    expect(alive(pid)).toBe(true);
    await provider.forgetSession('alpha');
    expect(alive(pid)).toBe(false);
    const listed = await provider.execute('task_output', { task_id: taskId }, context('alpha'));
    expect(textOf(listed)).toMatch(/no background task/);
  });
});
