import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuiltinProvider, createBuiltinProvider } from '../src/index.js';
import { context, failure, makeTempDir, okText } from './helpers.js';

// Bad input to bash and background tasks: early aborts, races with close.

let dir: string;
let cleanup: () => Promise<void>;
let provider: BuiltinProvider;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  provider = createBuiltinProvider({ workspace: dir });
});

afterEach(async () => {
  await provider.close?.();
  await cleanup();
});

describe('bash', () => {
  it('refuses a null byte in the command with INVALID_ARGUMENTS, in the foreground and the background', async () => {
    for (const background of [false, true]) {
      const error = failure(
        await provider.execute('bash', { command: 'echo a\0b', run_in_background: background }, context()),
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
      const result = await provider.execute(
        'bash',
        { command: `echo ran > ${marker}`, run_in_background: background },
        context('s1', { signal: aborted.signal }),
      );
      expect(failure(result).code).toBe('CANCELLED');
    }
    // Give a command that did start time to leave its mark (nothing should).
    okText(await provider.execute('bash', { command: 'sleep 0.3' }, context()));
    expect(existsSync(join(dir, 'fg.txt'))).toBe(false);
    expect(existsSync(join(dir, 'bg.txt'))).toBe(false);
    expect(okText(await provider.execute('process', {}, context()))).not.toContain('echo ran');
  });
});

describe('calls racing close', () => {
  it('starts no command once close() has begun, in the foreground or the background', async () => {
    const calls = [
      provider.execute('bash', { command: 'sleep 0.5; touch fg-ran' }, context()),
      provider.execute('bash', { command: 'sleep 0.5; touch bg-ran', run_in_background: true }, context()),
    ];
    await provider.close?.();
    for (const result of await Promise.all(calls)) {
      expect(failure(result).code).toBe('PROVIDER_UNAVAILABLE');
    }
    // Long enough for a command that did start to leave its mark.
    await new Promise((done) => setTimeout(done, 1500));
    expect(existsSync(join(dir, 'fg-ran'))).toBe(false);
    expect(existsSync(join(dir, 'bg-ran'))).toBe(false);
  });
});

describe('background tasks', () => {
  it('task_output reports a cancelled wait as CANCELLED, and the task keeps running', async () => {
    const started = await provider.execute(
      'bash',
      { command: 'sleep 30', run_in_background: true },
      context(),
    );
    const taskId = (started.ok ? started.structured : undefined) as { taskId: string };
    const controller = new AbortController();
    const waiting = provider.execute(
      'task_output',
      { task_id: taskId.taskId, block: true, timeout: 60_000 },
      context('s1', { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 200);
    const error = failure(await waiting);
    expect(error.code).toBe('CANCELLED');
    expect(error.message).toContain('keeps running');
    const status = await provider.execute('task_output', { task_id: taskId.taskId, block: false }, context());
    expect(okText(status)).toContain('running');
  });
});
