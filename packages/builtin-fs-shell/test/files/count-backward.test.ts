import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, seededRandom } from '../helpers/index.js';
import { findLineBackward } from '../../src/files/count-backward.js';
import { createNewlineScanner } from '../../src/files/newline-scanner.js';

let dir: string;
let cleanup: () => Promise<void>;
let bytes: Buffer;
/** Byte offset where each line starts (index 0 is line 1). */
let lineStarts: number[];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-backward-'));
  const next = seededRandom(11);
  const rows: string[] = [];
  // Empty lines, short ones, and some longer than the small test buffer.
  for (let i = 1; i <= 20_000; i++) {
    const kind = next();
    const length = kind < 0.1 ? 0 : kind < 0.97 ? Math.floor(next() * 60) : 5000 + Math.floor(next() * 5000);
    rows.push('y'.repeat(length));
  }
  bytes = Buffer.from(`${rows.join('\n')}\n`);
  lineStarts = [0];
  for (let at = bytes.indexOf(10); at !== -1 && at + 1 < bytes.length; at = bytes.indexOf(10, at + 1))
    lineStarts.push(at + 1);
  await writeFile(join(dir, 'rows.txt'), bytes);
});
afterAll(() => cleanup());

/** "\n" bytes before `offset`. */
function newlinesBefore(offset: number): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1 && at < offset; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

describe('findLineBackward: a line start counted back from a checkpoint after it', () => {
  for (const simd of [true, false]) {
    it(`finds every line start exactly (${simd ? 'SIMD' : 'JS fallback'}, chunks smaller than lines)`, async () => {
      const scanner = createNewlineScanner({ capacity: 4096, simd });
      const handle = await open(join(dir, 'rows.txt'));
      const next = seededRandom(simd ? 5 : 6);
      try {
        for (let trial = 0; trial < 200; trial++) {
          // A checkpoint anywhere (mid-line too), and a line up to 300 lines before it.
          const offset = Math.floor(next() * bytes.length);
          const from = { offset, newlines: newlinesBefore(offset) };
          const line = Math.max(1, from.newlines + 1 - Math.floor(next() * 300));
          const found = await findLineBackward({ handle, scanner, from, line, maxBytes: bytes.length });
          expect(found, `line ${line} back from ${offset}`).toBe(lineStarts[line - 1]);
        }
      } finally {
        await handle.close();
      }
    });
  }

  it('gives up past maxBytes, and when the checkpoint is before the line', async () => {
    const scanner = createNewlineScanner({ capacity: 4096 });
    const handle = await open(join(dir, 'rows.txt'));
    try {
      const offset = lineStarts[15_000] as number;
      const from = { offset, newlines: 15_000 };
      const far = lineStarts[10_000] as number;
      // Finding a line's start takes reading the "\n" just before it.
      expect(await findLineBackward({ handle, scanner, from, line: 10_001, maxBytes: offset - far })).toBe(
        undefined,
      );
      expect(
        await findLineBackward({ handle, scanner, from, line: 10_001, maxBytes: offset - far + 1 }),
      ).toBe(far);
      expect(await findLineBackward({ handle, scanner, from, line: 15_003, maxBytes: offset })).toBe(
        undefined,
      );
      expect(await findLineBackward({ handle, scanner, from, line: 1, maxBytes: 0 })).toBe(0);
    } finally {
      await handle.close();
    }
  });

  it('stops on abort with the reason', async () => {
    const scanner = createNewlineScanner({ capacity: 4096 });
    const handle = await open(join(dir, 'rows.txt'));
    try {
      const from = { offset: bytes.length, newlines: newlinesBefore(bytes.length) };
      const signal = AbortSignal.abort(new Error('stopped by test'));
      await expect(
        findLineBackward({ handle, scanner, from, line: 2, maxBytes: bytes.length, signal }),
      ).rejects.toThrow('stopped by test');
    } finally {
      await handle.close();
    }
  });
});
