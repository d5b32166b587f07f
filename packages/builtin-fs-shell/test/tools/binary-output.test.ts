import { describe, expect, it } from 'vitest';
import { context, okText, useWorkspace } from '../helpers/index.js';

// A command that prints binary (a compressed file, an image, /dev/urandom) would hand the model
// tens of kilobytes of replacement characters; it gets a line saying what happened instead.

const ws = useWorkspace();

describe('binary output of commands', () => {
  it('is summarised, not shown, in the foreground, with the exit code kept', async () => {
    const text = okText(
      await ws.provider.execute('bash', { command: 'head -c 200000 /dev/urandom; exit 3' }, context()),
    );
    expect(text).toMatch(/^\[binary output: .* not shown; redirect it to a file/);
    expect(text).toContain('[exit code 3');
    expect(text.length).toBeLessThan(1000);
  });

  it('is summarised by task_output for a background task', async () => {
    const started = await ws.provider.execute(
      'bash',
      { command: 'head -c 200000 /dev/urandom', run_in_background: true },
      context(),
    );
    const taskId = (started.ok && (started.structured as { taskId: string }).taskId) as string;
    const text = okText(await ws.provider.execute('task_output', { task_id: taskId }, context()));
    expect(text).toMatch(/completed, exit code 0\n\[binary output: .* not shown/);
    expect(text.length).toBeLessThan(1000);
  });

  it('still shows text with a few undecodable bytes (Latin-1) and NUL-separated lists', async () => {
    const latin1 = okText(
      await ws.provider.execute(
        'bash',
        { command: "printf 'caf\\351 na\\357ve r\\351sum\\351 and more words\\n'" },
        context(),
      ),
    );
    expect(latin1).toContain('caf\ufffd na\ufffdve');
    const list = okText(
      await ws.provider.execute('bash', { command: "printf 'src/one.ts\\0src/two.ts\\0'" }, context()),
    );
    expect(list).toContain('src/one.ts\0src/two.ts');
  });
});
