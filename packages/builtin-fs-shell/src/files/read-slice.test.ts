import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers.js';
import { LineIndexCache } from './line-index.js';
import { readSlice } from './read-slice.js';

let dir: string;
let cleanup: () => Promise<void>;
const LINES = 50_000;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-slice-'));
  await writeFile(join(dir, 'big.txt'), Array.from({ length: LINES }, (_, i) => `row ${i + 1}`).join('\n'));
});
afterAll(() => cleanup());

async function slice(index: LineIndexCache, offset: number, limit: number) {
  const handle = await open(join(dir, 'big.txt'));
  try {
    const info = await handle.stat();
    return await readSlice({
      handle,
      key: 'big',
      size: info.size,
      mtimeMs: info.mtimeMs,
      offset,
      limit,
      maxBytes: 1 << 20,
      maxLineLength: 100,
      index,
    });
  } finally {
    await handle.close();
  }
}

describe('readSlice', () => {
  it('reads any slice, the same with a cold and a warm line index', async () => {
    const index = new LineIndexCache(1000);
    const cold = await slice(index, 41_234, 3);
    expect(cold.lines).toEqual(['row 41234', 'row 41235', 'row 41236']);
    expect(cold.more).toBe(true);
    const warm = await slice(index, 41_234, 3);
    expect(warm).toEqual(cold);
    expect(index.nearest('big', 0, 0, 41_234)).toEqual({ line: 1, offset: 0 });
    const last = await slice(index, LINES - 1, 10);
    expect(last.lines).toEqual([`row ${LINES - 1}`, `row ${LINES}`]);
    expect(last.totalLines).toBe(LINES);
    expect(last.more).toBe(false);
    const past = await slice(index, LINES + 5, 10);
    expect(past.lines).toEqual([]);
    expect(past.totalLines).toBe(LINES);
  });

  it('stops at the byte cap and says so', async () => {
    const handle = await open(join(dir, 'big.txt'));
    const info = await handle.stat();
    const capped = await readSlice({
      handle,
      key: 'cap',
      size: info.size,
      mtimeMs: info.mtimeMs,
      offset: 1,
      limit: 1000,
      maxBytes: 50,
      maxLineLength: 100,
      index: new LineIndexCache(),
    });
    await handle.close();
    expect(capped.lines.length).toBeLessThan(1000);
    expect(capped.cappedByBytes).toBe(true);
  });
});
