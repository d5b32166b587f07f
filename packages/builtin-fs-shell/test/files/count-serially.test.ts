import { type FileHandle, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, newlinesBefore, seededRandom } from '../helpers/index.js';
import { SEGMENT_BYTES, countSerially, linesCounted } from '../../src/files/count-serially.js';
import { createNewlineScanner } from '../../src/files/newline-scanner.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-serial-'));
});
afterAll(() => cleanup());

/** `bytes` of lines of random length (some empty, some longer than a chunk), seeded. */
async function textFile(name: string, bytes: number, seed: number): Promise<{ path: string; data: Buffer }> {
  const next = seededRandom(seed);
  const data = Buffer.alloc(bytes, 0x61);
  for (
    let at = Math.floor(next() * 90);
    at < bytes;
    at += 1 + Math.floor(next() * (next() < 0.02 ? 9000 : 90))
  )
    data[at] = 10;
  const path = join(dir, name);
  await writeFile(path, data);
  return { path, data };
}

async function withHandle<T>(path: string, run: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await open(path);
  try {
    return await run(handle);
  } finally {
    await handle.close();
  }
}

describe('countSerially', () => {
  // Small buffers so a file of a few MiB needs many reads, growing from a first small chunk.
  const scanners = [
    { name: 'SIMD', scanner: () => createNewlineScanner({ capacity: 3 * SEGMENT_BYTES }) },
    { name: 'JS', scanner: () => createNewlineScanner({ capacity: 1000, simd: false }) },
  ];

  for (const { name, scanner } of scanners) {
    it(`counts a range exactly and reports every segment end in order (${name})`, async () => {
      const { path, data } = await textFile(`range-${name}.txt`, 4 * SEGMENT_BYTES + 12_345, 7);
      const from = 777;
      const checkpoints: Array<[number, number]> = [];
      const end = await withHandle(path, (handle) =>
        countSerially({
          handle,
          scanner: scanner(),
          from: { offset: from, newlines: newlinesBefore(data, from) },
          to: data.length,
          firstChunk: 100,
          onCheckpoint: (offset, newlines) => checkpoints.push([offset, newlines]),
        }),
      );
      expect(end).toEqual({ offset: data.length, newlines: newlinesBefore(data), lastByte: data.at(-1) });
      expect(checkpoints.length).toBeGreaterThan(4);
      // In order, each with the newlines before it (counted along, one pass over the data).
      let counted = newlinesBefore(data, from);
      let previous = from;
      for (const [offset, newlines] of checkpoints) {
        expect(offset).toBeGreaterThan(previous);
        for (let at = data.indexOf(10, previous); at !== -1 && at < offset; at = data.indexOf(10, at + 1))
          counted++;
        expect(newlines).toBe(counted);
        previous = offset;
      }
      expect(previous).toBe(data.length);
    });

    it(`finds the byte after the wanted newline (${name})`, async () => {
      const { path, data } = await textFile(`until-${name}.txt`, 3 * SEGMENT_BYTES, 11);
      const total = newlinesBefore(data);
      for (const until of [1, 2, Math.floor(total / 2), total]) {
        const end = await withHandle(path, (handle) =>
          countSerially({
            handle,
            scanner: scanner(),
            from: { offset: 0, newlines: 0 },
            to: data.length,
            until,
          }),
        );
        let at = -1;
        for (let seen = 0; seen < until; seen++) at = data.indexOf(10, at + 1);
        expect(end.found).toBe(at + 1);
        expect(end.newlines).toBe(newlinesBefore(data, end.offset));
      }
      const past = await withHandle(path, (handle) =>
        countSerially({
          handle,
          scanner: scanner(),
          from: { offset: 0, newlines: 0 },
          to: data.length,
          until: total + 1,
        }),
      );
      expect(past.found).toBeUndefined();
      expect(past.newlines).toBe(total);
    });
  }

  it('goes on from a point counted elsewhere, and only from a point further on', async () => {
    const { path, data } = await textFile('ahead.txt', 3 * SEGMENT_BYTES, 5);
    const jump = 2 * SEGMENT_BYTES;
    const offered: number[] = [];
    const end = await withHandle(path, (handle) =>
      countSerially({
        handle,
        scanner: createNewlineScanner({ capacity: 256 * 1024 }),
        from: { offset: 0, newlines: 0 },
        to: data.length,
        beforeRead: (reach) => {
          offered.push(reach.offset);
          // Where the count stands (no progress: must be ignored), then a jump once, past 512 KiB.
          if (reach.offset < 512 * 1024) return reach;
          return offered.includes(jump) ? undefined : { offset: jump, newlines: 1_000_000 };
        },
      }),
    );
    // The bytes before the jump were counted here until 512 KiB, then the jump's count was taken.
    expect(offered).toContain(jump);
    expect(end.newlines).toBe(1_000_000 + newlinesBefore(data) - newlinesBefore(data, jump));
  });

  it('stops when afterRead throws and on abort', async () => {
    const { path, data } = await textFile('stop.txt', 2 * SEGMENT_BYTES, 3);
    const reads: number[] = [];
    const failing = withHandle(path, (handle) =>
      countSerially({
        handle,
        scanner: createNewlineScanner({ capacity: 64 * 1024 }),
        from: { offset: 0, newlines: 0 },
        to: data.length,
        afterRead: async () => {
          reads.push(reads.length);
          if (reads.length === 3) throw new Error('the file changed');
        },
      }),
    );
    await expect(failing).rejects.toThrow('the file changed');
    expect(reads).toHaveLength(3);
    const controller = new AbortController();
    const aborted = withHandle(path, (handle) =>
      countSerially({
        handle,
        scanner: createNewlineScanner({ capacity: 64 * 1024 }),
        from: { offset: 0, newlines: 0 },
        to: data.length,
        onCheckpoint: () => controller.abort(new Error('stopped by the caller')),
        signal: controller.signal,
      }),
    );
    await expect(aborted).rejects.toThrow('stopped by the caller');
  });
});

describe('linesCounted', () => {
  it('counts a last line without "\\n", reading the last byte when the count did not', async () => {
    const path = join(dir, 'tail.txt');
    await writeFile(path, 'one\ntwo\nthree');
    const scanner = createNewlineScanner({ capacity: 64 });
    await withHandle(path, async (handle) => {
      expect(await linesCounted(handle, scanner, { offset: 13, newlines: 2, lastByte: 0x65 })).toBe(3);
      // Started at the end (a checkpoint there): nothing read, so the byte is read now.
      expect(await linesCounted(handle, scanner, { offset: 13, newlines: 2 })).toBe(3);
      expect(await linesCounted(handle, scanner, { offset: 8, newlines: 2 })).toBe(2);
      expect(await linesCounted(handle, scanner, { offset: 0, newlines: 0 })).toBe(0);
    });
  });
});
