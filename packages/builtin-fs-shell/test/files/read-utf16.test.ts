// UTF-16 files are decoded as they are read, a megabyte at a time, in flat memory. Every answer
// is compared with the whole file decoded and split in memory.
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/index.js';
import type { Slice } from '../../src/files/read-slice.js';
import { readUtf16Slice } from '../../src/files/read-utf16.js';

type Encoding = 'utf16le' | 'utf16be';

function encode(text: string, encoding: Encoding): Buffer {
  const units = Buffer.from(`\ufeff${text}`, 'utf16le');
  return encoding === 'utf16le' ? units : units.swap16();
}

/** What a read of the whole text, split at "\n", gives (the byte cap aside). */
function expected(text: string, offset: number, limit: number, maxLineLength: number): Slice {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let longLines = 0;
  const selected = lines.slice(offset - 1, offset - 1 + limit).map((line) => {
    const shown = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (shown.length <= maxLineLength) return shown;
    longLines++;
    return `${shown.slice(0, maxLineLength)} [line truncated]`;
  });
  return {
    lines: selected,
    firstLine: offset,
    more: offset - 1 + limit < lines.length,
    cappedByBytes: false,
    longLines,
    totalLines: lines.length,
  };
}

/** A generator of pseudo-random numbers, the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('readUtf16Slice', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let count = 0;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('tp-read-utf16-'));
  });
  afterAll(async () => {
    await cleanup();
  });

  async function read(
    bytes: Buffer,
    encoding: Encoding,
    offset: number,
    limit: number,
    maxBytes = 1 << 30,
    maxLineLength = 50,
  ): Promise<Slice> {
    const path = join(dir, `f${count++}.txt`);
    await writeFile(path, bytes);
    const handle = await open(path, 'r');
    try {
      return await readUtf16Slice({
        handle,
        encoding,
        size: bytes.length,
        offset,
        limit,
        maxBytes,
        maxLineLength,
      });
    } finally {
      await handle.close();
    }
  }

  it('gives what the whole decoded text gives, over many shapes of file', async () => {
    const random = seeded(7);
    const pieces = ['a', 'word ', 'ü', '€', '😀', '\r', '\n', '\n', '\r\n', 'x'.repeat(60)];
    for (let round = 0; round < 60; round++) {
      const length = Math.floor(random() * 400);
      let text = '';
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      const encoding: Encoding = round % 2 === 0 ? 'utf16le' : 'utf16be';
      const offset = 1 + Math.floor(random() * 30);
      const limit = 1 + Math.floor(random() * 20);
      const got = await read(encode(text, encoding), encoding, offset, limit);
      expect({ round, ...got }).toEqual({ round, ...expected(text, offset, limit, 50) });
    }
  });

  it('reads across its megabyte reads, a surrogate pair split between two of them', async () => {
    // 524,287 units before the pair: its halves land on both sides of the first 1 MiB read.
    const head = `${'z'.repeat(99)}\n`.repeat(5242) + 'y'.repeat(87);
    const text = `${head}😀 tail\nnext line\n${'more\n'.repeat(300_000)}last, no newline`;
    const got = await read(encode(text, 'utf16le'), 'utf16le', 5243, 3, 1 << 30, 200);
    expect(got).toEqual(expected(text, 5243, 3, 200));
    expect(got.lines[0]?.endsWith('y😀 tail')).toBe(true);
    expect(got.totalLines).toBe(305_245);
    const end = await read(encode(text, 'utf16be'), 'utf16be', 305_244, 10);
    expect(end).toEqual(expected(text, 305_244, 10, 50));
    expect(end.lines).toEqual(['more', 'last, no newline']);
  });

  it('stops at the byte cap and says so, as the UTF-8 reader does', async () => {
    // Lines are taken until they reach the cap: the one that reaches it is kept.
    const text = 'short\nsecond line\nthird\n';
    expect(await read(encode(text, 'utf16le'), 'utf16le', 1, 10, 15)).toEqual({
      lines: ['short', 'second line'],
      firstLine: 1,
      more: true,
      cappedByBytes: true,
      longLines: 0,
      totalLines: 3,
    });
    const one = await read(encode(text, 'utf16le'), 'utf16le', 2, 10, 1);
    expect(one).toMatchObject({ lines: ['second line'], more: true, cappedByBytes: true, totalLines: 3 });
    const last = await read(encode(text, 'utf16be'), 'utf16be', 3, 10, 1);
    expect(last).toMatchObject({ lines: ['third'], more: false, cappedByBytes: false, totalLines: 3 });
  });

  it('leaves the line count out when much of the file follows the lines read', async () => {
    const text = `${'0123456789abcdef\n'.repeat(400_000)}`; // 13.6 MB of UTF-16
    const got = await read(encode(text, 'utf16le'), 'utf16le', 10, 5);
    expect(got).toEqual({
      lines: Array.from({ length: 5 }, () => '0123456789abcdef'),
      firstLine: 10,
      more: true,
      cappedByBytes: false,
      longLines: 0,
    });
  });

  it('turns an unpaired surrogate and an odd last byte into U+FFFD', async () => {
    const bytes = Buffer.concat([encode('ok \ud800 x\nend', 'utf16le'), Buffer.from([0x41])]);
    const got = await read(bytes, 'utf16le', 1, 10);
    expect(got.lines).toEqual(['ok \ufffd x', 'end\ufffd']);
    expect(got.totalLines).toBe(2);
  });
});
