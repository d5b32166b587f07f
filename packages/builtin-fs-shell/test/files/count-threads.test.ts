import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, makeTempDir, newlinesBefore, seededRandom } from '../helpers/index.js';
import {
  type CountJob,
  type CountReach,
  CountThreads,
  type CountThreadsOptions,
} from '../../src/files/count-threads.js';
import { type WasmModule, newlineModule } from '../../src/files/newline-wasm.js';

let dir: string;
let cleanup: () => Promise<void>;
const module = newlineModule();
const pools: CountThreads[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-count-'));
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await cleanup();
});

/** Small blocks and segments, so a file of a few hundred KiB spans many of each. */
function pool(options: CountThreadsOptions = {}): CountThreads {
  if (!module) throw new Error('this runtime has no WebAssembly SIMD; Node >= 20.19 has it');
  const threads = new CountThreads(module, {
    threads: 3,
    segmentBytes: 4096,
    blockBytes: 16_384,
    chunkBytes: 1024,
    ...options,
  });
  pools.push(threads);
  return threads;
}

/** Lines of random lengths (empty ones, and some longer than a block) with "\r\n" here and there. */
async function randomText(
  name: string,
  bytes: number,
  seed = bytes,
): Promise<{ path: string; data: Buffer }> {
  const next = seededRandom(seed);
  const between = (low: number, high: number) => low + Math.floor(next() * (high - low));
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const kind = between(0, 100);
    const length = kind < 10 ? 0 : kind < 12 ? between(20_000, 40_000) : between(1, 200);
    const line = `${'x'.repeat(length)}${kind % 7 === 0 ? '\r\n' : '\n'}`;
    parts.push(line);
    size += line.length;
  }
  // Sometimes no newline at the very end.
  const data = Buffer.from(parts.join('').slice(0, bytes));
  const path = join(dir, name);
  await writeFile(path, data);
  return { path, data };
}

/** Runs a job on threads that must be free. */
function run(threads: CountThreads, job: CountJob): Promise<CountReach> {
  const counting = threads.tryCount(job);
  if (!counting) throw new Error('the threads were busy');
  return counting;
}

async function withFd<T>(path: string, run: (fd: number) => Promise<T>): Promise<T> {
  const handle = await open(path);
  try {
    return await run(handle.fd);
  } finally {
    await handle.close();
  }
}

describe('CountThreads', () => {
  it('counts a range exactly, checkpoints in file order, from an unaligned start', async () => {
    const { path, data } = await randomText('random.txt', 700_001);
    const threads = pool();
    for (const start of [0, 1, 12_345, 300_000, 699_999]) {
      const checkpoints: [number, number][] = [];
      const reach = await withFd(path, (fd) => {
        const job: CountJob = {
          fd,
          start,
          newlines: newlinesBefore(data, start),
          end: data.length,
          onCheckpoint: (offset, newlines) => checkpoints.push([offset, newlines]),
        };
        return run(threads, job);
      });
      expect(reach).toEqual({ offset: data.length, newlines: newlinesBefore(data, data.length) });
      expect(checkpoints.length).toBe(Math.ceil((data.length - start) / 4096));
      let previous = start;
      for (const [offset, newlines] of checkpoints) {
        expect(offset).toBeGreaterThan(previous);
        expect(newlines).toBe(newlinesBefore(data, offset));
        previous = offset;
      }
    }
  });

  it('stops at the segment that holds the wanted newline', async () => {
    const { path, data } = await randomText('until.txt', 500_000);
    const total = newlinesBefore(data, data.length);
    const threads = pool();
    const wanted = [1, 2, 17, Math.floor(total / 3), total - 1, total];
    for (const until of wanted) {
      const reach = await withFd(path, (fd) =>
        run(threads, { fd, start: 0, newlines: 0, end: data.length, until }),
      );
      // Exact at its offset, short of the wanted newline, which lies within the next segment.
      expect(reach.newlines).toBe(newlinesBefore(data, reach.offset));
      expect(reach.newlines).toBeLessThan(until);
      expect(newlinesBefore(data, Math.min(data.length, reach.offset + 4096))).toBeGreaterThanOrEqual(until);
    }
    // Past the last newline: counts to the end.
    const past = await withFd(path, (fd) =>
      run(threads, { fd, start: 0, newlines: 0, end: data.length, until: total + 1 }),
    );
    expect(past).toEqual({ offset: data.length, newlines: total });
  });

  it('runs one job at a time and says so', async () => {
    const { path, data } = await randomText('busy.txt', 200_000);
    const threads = pool();
    await withFd(path, async (fd) => {
      const first = threads.tryCount({ fd, start: 0, newlines: 0, end: data.length });
      expect(first).toBeDefined();
      expect(threads.busy).toBe(true);
      expect(threads.tryCount({ fd, start: 0, newlines: 0, end: data.length })).toBeUndefined();
      expect((await first)?.newlines).toBe(newlinesBefore(data, data.length));
      expect(threads.busy).toBe(false);
    });
  });

  it('stops on abort with the reason, and the next job runs', async () => {
    const { path, data } = await randomText('abort.txt', 2_000_000);
    const threads = pool({ threads: 2 });
    const controller = new AbortController();
    let checkpoints = 0;
    await withFd(path, async (fd) => {
      const counting = threads.tryCount({
        fd,
        start: 0,
        newlines: 0,
        end: data.length,
        signal: controller.signal,
        onCheckpoint: () => {
          if (++checkpoints === 3) controller.abort(new Error('the caller went away'));
        },
      });
      await expect(counting).rejects.toThrow('the caller went away');
      // Nothing is reported after the abort, though blocks counted meanwhile may have arrived.
      expect(checkpoints).toBe(3);
      expect(threads.busy).toBe(false);
      const again = await run(threads, { fd, start: 0, newlines: 0, end: data.length });
      expect(again.newlines).toBe(newlinesBefore(data, data.length));
    });
    // An already aborted signal never starts a job.
    await expect(
      threads.tryCount({ fd: 0, start: 0, newlines: 0, end: 10, signal: controller.signal }),
    ).rejects.toThrow('the caller went away');
  });

  it('fails with a clear error when the file is shorter than the range or the descriptor is bad', async () => {
    const { path, data } = await randomText('short.txt', 100_000);
    const threads = pool();
    await withFd(path, async (fd) => {
      await expect(
        threads.tryCount({ fd, start: 0, newlines: 0, end: data.length + 50_000 }),
      ).rejects.toThrow(/changed during the scan/);
    });
    const handle = await open(path);
    const closedFd = handle.fd;
    await handle.close();
    await expect(threads.tryCount({ fd: closedFd, start: 0, newlines: 0, end: data.length })).rejects.toThrow(
      /counting newlines failed: .*EBADF/,
    );
    // The threads survive a failed job.
    const again = await withFd(path, (fd) => run(threads, { fd, start: 0, newlines: 0, end: data.length }));
    expect(again.newlines).toBe(newlinesBefore(data, data.length));
  });

  it('starts threads on first use and lets them go when idle', async () => {
    const { path, data } = await randomText('idle.txt', 50_000);
    const threads = pool({ threads: 2, idleMs: 20 });
    expect(threads.liveThreads).toBe(0);
    const count = () => withFd(path, (fd) => run(threads, { fd, start: 0, newlines: 0, end: data.length }));
    await count();
    expect(threads.liveThreads).toBe(2);
    // Bounded wait for the idle timer (20 ms) to end them.
    await eventually(() => threads.liveThreads === 0);
    expect(threads.liveThreads).toBe(0);
    expect((await count()).newlines).toBe(newlinesBefore(data, data.length));
  });

  it('warms up without a job: ready once every thread has started, idle later', async () => {
    const threads = pool({ threads: 2, idleMs: 200 });
    expect(threads.ready).toBe(false);
    threads.warm();
    expect(threads.liveThreads).toBe(2);
    // Bounded wait for both threads to say they are up (tens of milliseconds each).
    await eventually(() => threads.ready);
    expect(threads.ready).toBe(true);
    await eventually(() => threads.liveThreads === 0);
    expect(threads.liveThreads).toBe(0);
    expect(threads.ready).toBe(false);
  });

  it('declines every job when threads cannot start, so the caller counts itself', async () => {
    // A function cannot be sent to a thread: the Worker constructor throws, as it would where
    // threads are forbidden.
    const broken = new CountThreads((() => 0) as unknown as WasmModule, { threads: 2 });
    pools.push(broken);
    expect(broken.tryCount({ fd: 0, start: 0, newlines: 0, end: 10 })).toBeUndefined();
    expect(broken.tryCount({ fd: 0, start: 0, newlines: 0, end: 10 })).toBeUndefined();
    broken.warm();
    expect(broken.liveThreads).toBe(0);
    expect(broken.ready).toBe(false);
  });

  it('fails a running job on close', async () => {
    const { path, data } = await randomText('close.txt', 2_000_000);
    const threads = pool({ threads: 2 });
    await withFd(path, async (fd) => {
      let closing: Promise<void> | undefined;
      const counting = threads.tryCount({
        fd,
        start: 0,
        newlines: 0,
        end: data.length,
        onCheckpoint: () => {
          closing ??= threads.close();
        },
      });
      await expect(counting).rejects.toThrow('the counting threads were closed');
      await closing;
      expect(threads.liveThreads).toBe(0);
    });
  });
});
