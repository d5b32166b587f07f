// A read of a large text file starts the process's counting threads, so the model's next read,
// deeper into the file, finds them up instead of waiting for them to start. In a file of its own:
// the threads belong to the process, and no other test here may have started them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, eventually, makeTempDir, okText } from '../helpers/index.js';
import { sharedCountThreads } from '../../src/files/count-threads.js';
import { createBuiltinProvider } from '../../src/provider.js';
import { WARM_THREADS_MIN_BYTES } from '../../src/tools/read.js';

/** `bytes` of 32-byte numbered lines (bytes is a multiple of 32). */
function numberedLines(bytes: number): Buffer {
  const data = Buffer.alloc(bytes);
  for (let line = 0; line < bytes / 32; line++)
    data.write(`row ${String(line + 1).padStart(27, '0')}\n`, line * 32);
  return data;
}

describe('read warms the counting threads for large files', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const threads = sharedCountThreads();
  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-read-warm-'));
    await writeFile(join(dir, 'small.txt'), numberedLines(1024 * 1024));
    await writeFile(join(dir, 'large.txt'), numberedLines(WARM_THREADS_MIN_BYTES));
  });
  afterAll(async () => {
    await cleanup();
  });

  it('leaves them down for a small file and starts them on the head read of a large one', async () => {
    if (!threads) throw new Error('this runtime has no WebAssembly SIMD: the counting threads cannot exist');
    const provider = createBuiltinProvider({ workspace: dir, tools: ['read'], indexAhead: false });
    try {
      expect(okText(await provider.execute('read', { path: 'small.txt', limit: 5 }, context()))).toContain(
        'row 000000000000000000000000005',
      );
      expect(threads.liveThreads).toBe(0);
      const head = okText(await provider.execute('read', { path: 'large.txt', limit: 5 }, context()));
      expect(head).toContain('row 000000000000000000000000001');
      // Started by the head read itself (no index-ahead here), before any deep read asked.
      expect(threads.liveThreads).toBeGreaterThan(0);
      expect(await eventually(() => threads.ready)).toBe(true);
      const deepLine = WARM_THREADS_MIN_BYTES / 32 - 3;
      const deep = okText(
        await provider.execute('read', { path: 'large.txt', offset: deepLine, limit: 1 }, context()),
      );
      expect(deep).toContain(`row ${String(deepLine).padStart(27, '0')}`);
    } finally {
      await provider.close?.();
    }
  });
});
