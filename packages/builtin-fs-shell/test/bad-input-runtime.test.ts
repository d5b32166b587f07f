import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWorkspace, context, failure, okText } from './helpers/index.js';

// Bad input to bash and background tasks: early aborts, races with close.

const ws = useWorkspace();

describe('bash', () => {
  it('refuses a null byte in the command with INVALID_ARGUMENTS, in the foreground and the background', async () => {
    for (const background of [false, true]) {
      const error = failure(
        await ws.provider.execute('bash', { command: 'echo a\0b', run_in_background: background }, context()),
      );
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('null byte');
    }
  });

  it('runs nothing for a call whose signal was aborted before it started', async () => {
    const aborted = new AbortController();
    aborted.abort();
    for (const [background, marker] of [
      [false, 'fg.txt'],
      [true, 'bg.txt'],
    ] as const) {
      const result = await ws.provider.execute(
        'bash',
        { command: `echo ran > ${marker}`, run_in_background: background },
        context('s1', { signal: aborted.signal }),
      );
      expect(failure(result).code).toBe('CANCELLED');
    }
    // Give a command that did start time to leave its mark (nothing should).
    okText(await ws.provider.execute('bash', { command: 'sleep 0.3' }, context()));
    expect(existsSync(join(ws.dir, 'fg.txt'))).toBe(false);
    expect(existsSync(join(ws.dir, 'bg.txt'))).toBe(false);
    expect(okText(await ws.provider.execute('process', {}, context()))).not.toContain('echo ran');
  });
});

describe('calls racing close', () => {
  it('starts no command once close() has begun, in the foreground or the background', async () => {
    const calls = [
      ws.provider.execute('bash', { command: 'sleep 0.5; touch fg-ran' }, context()),
      ws.provider.execute('bash', { command: 'sleep 0.5; touch bg-ran', run_in_background: true }, context()),
    ];
    await ws.provider.close?.();
    for (const result of await Promise.all(calls)) {
      expect(failure(result).code).toBe('PROVIDER_UNAVAILABLE');
    }
    // Long enough for a command that did start to leave its mark.
    await new Promise((done) => setTimeout(done, 1500));
    expect(existsSync(join(ws.dir, 'fg-ran'))).toBe(false);
    expect(existsSync(join(ws.dir, 'bg-ran'))).toBe(false);
  });
});

describe('background tasks', () => {
  it('task_output reports a cancelled wait as CANCELLED, and the task keeps running', async () => {
    const started = await ws.provider.execute(
      'bash',
      { command: 'sleep 30', run_in_background: true },
      context(),
    );
    const taskId = (started.ok ? started.structured : undefined) as { taskId: string };
    const controller = new AbortController();
    const waiting = ws.provider.execute(
      'task_output',
      { task_id: taskId.taskId, block: true, timeout: 60_000 },
      context('s1', { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 200);
    const error = failure(await waiting);
    expect(error.code).toBe('CANCELLED');
    expect(error.message).toContain('keeps running');
    const status = await ws.provider.execute(
      'task_output',
      { task_id: taskId.taskId, block: false },
      context(),
    );
    expect(okText(status)).toContain('running');
  });
});
