import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, makeTempDir, seededRandom } from '../helpers/index.js';
import { CountThreads } from '../../src/files/count-threads.js';
import { LineIndexCache, versionOf } from '../../src/files/line-index.js';
import { ScannerPool } from '../../src/files/newline-scanner.js';
import { newlineModule } from '../../src/files/newline-wasm.js';
import { readSlice } from '../../src/files/read-slice.js';
import { BACKWARD_MAX_BYTES, SERIAL_LEAD_BYTES } from '../../src/files/skip-lines.js';

let dir: string;
let cleanup: () => Promise<void>;
const LINES = 50_000;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-slice-'));
  await writeFile(join(dir, 'big.txt'), Array.from({ length: LINES }, (_, i) => `row ${i + 1}`).join('\n'));
});
afterAll(() => cleanup());

interface ReadOptions {
  readonly index?: LineIndexCache;
  readonly scanners?: ScannerPool;
  readonly maxLineLength?: number;
  readonly threads?: CountThreads;
  readonly signal?: AbortSignal;
}

async function slice(file: string, offset: number, limit: number, options: ReadOptions = {}) {
  const handle = await open(join(dir, file));
  try {
    return await readSlice({
      handle,
      key: file,
      version: versionOf(await handle.stat()),
      offset,
      limit,
      maxBytes: 1 << 20,
      maxLineLength: options.maxLineLength ?? 100_000,
      index: options.index ?? new LineIndexCache(),
      scanners: options.scanners ?? new ScannerPool(),
      ...(options.threads ? { threads: options.threads } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await handle.close();
  }
}

/** The lines a reader expects: split on "\n", a final "\r" dropped, no empty line after a last "\n". */
function expectedLines(text: string): string[] {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Text of `count` lines of varied length: empty, short, and some longer than a small chunk. */
function variedText(count: number, seed: number, crlf: boolean, finalNewline: boolean): string {
  const next = seededRandom(seed);
  const rows: string[] = [];
  for (let i = 1; i <= count; i++) {
    const kind = next();
    const length = kind < 0.1 ? 0 : kind < 0.95 ? Math.floor(next() * 40) : 200 + Math.floor(next() * 300);
    rows.push(`${i}:${'x'.repeat(length)}`.slice(0, length === 0 ? 0 : undefined));
  }
  const eol = crlf ? '\r\n' : '\n';
  return rows.join(eol) + (finalNewline ? eol : '');
}

const SCANNERS = [
  { name: 'SIMD', simd: true },
  { name: 'JS fallback', simd: false },
] as const;

describe('readSlice', () => {
  it('reads any slice, the same with a cold and a warm line index', async () => {
    const index = new LineIndexCache({ minSpacing: 4096 });
    const cold = await slice('big.txt', 41_234, 3, { index });
    expect(cold.lines).toEqual(['row 41234', 'row 41235', 'row 41236']);
    expect(cold.more).toBe(true);
    const warm = await slice('big.txt', 41_234, 3, { index });
    expect(warm).toEqual(cold);
    const last = await slice('big.txt', LINES - 1, 10, { index });
    expect(last.lines).toEqual([`row ${LINES - 1}`, `row ${LINES}`]);
    expect(last.totalLines).toBe(LINES);
    expect(last.more).toBe(false);
    const past = await slice('big.txt', LINES + 5, 10, { index });
    expect(past.lines).toEqual([]);
    expect(past.totalLines).toBe(LINES);
  });

  it('stops at the byte cap and says so', async () => {
    const handle = await open(join(dir, 'big.txt'));
    const capped = await readSlice({
      handle,
      key: 'cap',
      version: versionOf(await handle.stat()),
      offset: 1,
      limit: 1000,
      maxBytes: 50,
      maxLineLength: 100,
      index: new LineIndexCache(),
      scanners: new ScannerPool(),
    });
    await handle.close();
    expect(capped.lines.length).toBeLessThan(1000);
    expect(capped.cappedByBytes).toBe(true);
  });
});

describe('the skip phase', () => {
  const variants = [
    { file: 'lf.txt', crlf: false, finalNewline: true },
    { file: 'crlf.txt', crlf: true, finalNewline: true },
    { file: 'unterminated.txt', crlf: false, finalNewline: false },
    { file: 'crlf-unterminated.txt', crlf: true, finalNewline: false },
  ];
  const texts = new Map<string, string>();
  beforeAll(async () => {
    for (const [i, variant] of variants.entries()) {
      const text = variedText(3000, 17 + i, variant.crlf, variant.finalNewline);
      texts.set(variant.file, text);
      await writeFile(join(dir, variant.file), text);
    }
  });

  for (const scanner of SCANNERS) {
    for (const variant of variants) {
      it(`finds exact lines across chunk boundaries (${scanner.name}, ${variant.file})`, async () => {
        const expected = expectedLines(texts.get(variant.file) as string);
        // Chunks of 37 and 256 bytes: many lines straddle a boundary, some lines span several chunks.
        for (const capacity of [37, 300, 65_536]) {
          const scanners = new ScannerPool({ capacity, simd: scanner.simd });
          expect(scanners.acquire().simd).toBe(scanner.simd);
          const index = new LineIndexCache({ minSpacing: 64 });
          const offsets = [1, 2, 3, 499, 1000, 1001, 1777, 2999, expected.length];
          for (let line = 5; line < expected.length; line += 331) offsets.push(line);
          for (const offset of offsets) {
            for (const warmth of ['cold', 'warm'] as const) {
              const result = await slice(variant.file, offset, 3, {
                scanners,
                index: warmth === 'cold' ? new LineIndexCache({ minSpacing: 64 }) : index,
              });
              const context = `${variant.file} offset ${offset} capacity ${capacity} ${warmth}`;
              expect(result.lines, context).toEqual(expected.slice(offset - 1, offset + 2));
              expect(result.firstLine).toBe(offset);
              expect(result.more, context).toBe(offset + 2 < expected.length);
            }
          }
        }
      });
    }

    it(`reports the line count for an offset past the end (${scanner.name})`, async () => {
      for (const variant of variants) {
        const expected = expectedLines(texts.get(variant.file) as string);
        const scanners = new ScannerPool({ capacity: 256, simd: scanner.simd });
        const index = new LineIndexCache({ minSpacing: 64 });
        for (const offset of [expected.length + 1, expected.length + 2, 10 * expected.length]) {
          const result = await slice(variant.file, offset, 5, { scanners, index });
          expect(result.lines).toEqual([]);
          expect(result.more).toBe(false);
          expect(result.totalLines, `${variant.file} offset ${offset}`).toBe(expected.length);
        }
      }
    });
  }

  it('finds lines longer than a whole chunk', async () => {
    const rows = ['short', 'y'.repeat(5000), '', 'z'.repeat(70_000), 'tail', 'w'.repeat(3000)];
    await writeFile(join(dir, 'long-lines.txt'), rows.join('\n'));
    for (const scanner of SCANNERS) {
      const scanners = new ScannerPool({ capacity: 1000, simd: scanner.simd });
      for (let offset = 1; offset <= rows.length; offset++) {
        const result = await slice('long-lines.txt', offset, 1, { scanners });
        expect(result.lines).toEqual([rows[offset - 1]]);
      }
      const past = await slice('long-lines.txt', rows.length + 1, 1, { scanners });
      expect(past.totalLines).toBe(rows.length);
    }
  });

  it('handles a file of newlines only, and a file with no newline at all', async () => {
    await writeFile(join(dir, 'newlines.txt'), '\n'.repeat(1000));
    await writeFile(join(dir, 'one-line.txt'), 'q'.repeat(10_000));
    const scanners = new ScannerPool({ capacity: 128 });
    const blank = await slice('newlines.txt', 777, 2, { scanners });
    expect(blank.lines).toEqual(['', '']);
    expect((await slice('newlines.txt', 1001, 1, { scanners })).totalLines).toBe(1000);
    const single = await slice('one-line.txt', 1, 1, { scanners });
    expect(single.lines).toEqual(['q'.repeat(10_000)]);
    expect((await slice('one-line.txt', 2, 1, { scanners })).totalLines).toBe(1);
  });

  it('stops when aborted during the scan, leaving the index consistent', async () => {
    const index = new LineIndexCache({ minSpacing: 64 });
    const scanners = new ScannerPool({ capacity: 512 });
    const controller = new AbortController();
    // The scan of 50 000 lines in 512-byte chunks takes hundreds of reads; the abort lands after the first.
    const pending = slice('big.txt', 45_000, 3, { index, scanners, signal: controller.signal });
    controller.abort(new Error('stop scanning'));
    await expect(pending).rejects.toThrow('stop scanning');
    const handle = await open(join(dir, 'big.txt'));
    const version = versionOf(await handle.stat());
    await handle.close();
    expect(index.isComplete('big.txt', version)).toBe(false);
    // What the aborted scan recorded is exact: a read from its checkpoints is right.
    const after = await slice('big.txt', 45_000, 3, { index, scanners });
    expect(after.lines).toEqual(['row 45000', 'row 45001', 'row 45002']);
  });
});

describe('the skip phase on counting threads', () => {
  const file = 'threads.txt';
  let expected: string[];
  let threads: CountThreads;
  let handedOver = 0;
  beforeAll(async () => {
    const text = variedText(200_000, 99, true, false);
    // Long enough that a scan hands the part past its serial lead to the threads.
    expect(text.length).toBeGreaterThan(2 * SERIAL_LEAD_BYTES);
    expected = expectedLines(text);
    await writeFile(join(dir, file), text);
    const module = newlineModule();
    if (!module) throw new Error('this runtime has no WebAssembly SIMD; Node >= 20.19 has it');
    // Small blocks and segments: the line is found across many of them.
    threads = new CountThreads(module, {
      threads: 2,
      segmentBytes: 4096,
      blockBytes: 12_288,
      chunkBytes: 2048,
    });
    // Threads up before the tests: a read that meets them starting counts on its own meanwhile.
    threads.warm();
    await eventually(() => threads.ready);
    expect(threads.ready).toBe(true);
    const tryCount = threads.tryCount.bind(threads);
    threads.tryCount = (job) => {
      const counting = tryCount(job);
      if (counting) handedOver++;
      return counting;
    };
  });
  afterAll(() => threads.close());

  it('finds exact lines, cold and warm, and the line count past the end', async () => {
    const offsets = [1, 2, 1000, 60_000, 123_457, 199_999, expected.length];
    for (let line = 77; line < expected.length; line += 19_391) offsets.push(line);
    const warm = new LineIndexCache({ minSpacing: 4096 });
    for (const offset of offsets) {
      for (const index of [new LineIndexCache({ minSpacing: 4096 }), warm]) {
        const result = await slice(file, offset, 3, { threads, index });
        expect(result.lines, `offset ${offset}`).toEqual(expected.slice(offset - 1, offset + 2));
        expect(result.more).toBe(offset + 2 < expected.length);
      }
    }
    const past = await slice(file, expected.length + 3, 1, { threads });
    expect(past.totalLines).toBe(expected.length);
    expect(handedOver).toBeGreaterThan(5);
  });

  it('hands a far line to the threads after the first chunk, and keeps a near one on its own thread', async () => {
    const first: number[] = [];
    const record = (into: number[]) => {
      const index = new LineIndexCache({ minSpacing: 4096 });
      const own = index.record.bind(index);
      index.record = (key, version, offset, newlines) => {
        if (threads.busy && into.length === 0) into.push(offset);
        own(key, version, offset, newlines);
      };
      return index;
    };
    const before = handedOver;
    const far = await slice(file, 190_000, 2, { threads, index: record(first) });
    expect(far.lines).toEqual(expected.slice(189_999, 190_001));
    expect(handedOver).toBe(before + 1);
    // Handed over well before the serial lead: the lines of the first chunk put 190 000 far off.
    expect(first[0]).toBeLessThan(SERIAL_LEAD_BYTES);
    // A line the first chunk shows is near (10 000 lines of about 40 bytes) never wakes the threads.
    const nearLine = 10_000;
    const near = await slice(file, nearLine, 2, { threads, index: record([]) });
    expect(near.lines).toEqual(expected.slice(nearLine - 1, nearLine + 1));
    expect(handedOver).toBe(before + 1);
  });

  it('counts on its own thread, with the same result, while the threads are busy', async () => {
    // A count of /dev/zero that never ends on its own keeps the threads busy until aborted.
    const zeros = await open('/dev/zero');
    const controller = new AbortController();
    try {
      const busy = threads.tryCount({
        fd: zeros.fd,
        start: 0,
        newlines: 0,
        end: 2 ** 40,
        signal: controller.signal,
      });
      const before = handedOver;
      const result = await slice(file, 150_000, 2, { threads });
      expect(result.lines).toEqual(expected.slice(149_999, 150_001));
      expect(threads.busy).toBe(true);
      expect(handedOver).toBe(before);
      controller.abort(new Error('done with zeros'));
      await expect(busy).rejects.toThrow('done with zeros');
    } finally {
      await zeros.close();
    }
  });

  it('stops when aborted while the threads count, and the next read is right', async () => {
    const controller = new AbortController();
    const index = new LineIndexCache({ minSpacing: 4096 });
    // The abort comes from the first checkpoint the threads hand back, so it lands mid-count.
    let abortedAt: number | undefined;
    const record = index.record.bind(index);
    index.record = (key, version, offset, newlines) => {
      record(key, version, offset, newlines);
      if (abortedAt === undefined && threads.busy) {
        abortedAt = offset;
        controller.abort(new Error('reader left'));
      }
    };
    const pending = slice(file, expected.length - 5, 2, { threads, index, signal: controller.signal });
    await expect(pending).rejects.toThrow('reader left');
    // The first checkpoint from the threads: the count had far to go when it was stopped.
    expect(abortedAt).toBeLessThan(SERIAL_LEAD_BYTES);
    expect(threads.busy).toBe(false);
    index.record = record;
    const after = await slice(file, expected.length - 5, 2, { threads, index });
    expect(after.lines).toEqual(expected.slice(expected.length - 6, expected.length - 4));
  });
});

describe('readSlice near an anchor (a line start a search reported)', () => {
  const ROWS = 1_000_000;
  let starts: number[];
  beforeAll(async () => {
    const text = Array.from({ length: ROWS }, (_, i) => `row ${i + 1}`).join('\n');
    await writeFile(join(dir, 'anchored.txt'), text);
    starts = [0];
    for (let i = 1; i < ROWS; i++) starts.push((starts[i - 1] as number) + `row ${i}`.length + 1);
  });

  async function anchoredIndex(
    line: number,
  ): Promise<{ index: LineIndexCache; version: ReturnType<typeof versionOf> }> {
    const handle = await open(join(dir, 'anchored.txt'));
    const version = versionOf(await handle.stat());
    await handle.close();
    const index = new LineIndexCache({ minSpacing: 4096 });
    index.record('anchored.txt', version, starts[line - 1] as number, line - 1);
    return { index, version };
  }

  it('reads lines before and after the anchor without counting from the start of the file', async () => {
    for (const line of [899_950, 900_000, 900_010, 899_000]) {
      const { index, version } = await anchoredIndex(900_000);
      const result = await slice('anchored.txt', line, 100, { index });
      expect(result.lines[0]).toBe(`row ${line}`);
      expect(result.lines.at(-1)).toBe(`row ${line + 99}`);
      // Nothing was counted from the start: the counted part is still just the start.
      expect(index.furthest('anchored.txt', version)).toEqual({ offset: 0, newlines: 0 });
    }
  });

  it('counts from the start when the line is further back than a backward count goes', async () => {
    const { index, version } = await anchoredIndex(900_000);
    const line = 400_000;
    expect((starts[899_999] as number) - (starts[line - 1] as number)).toBeGreaterThan(BACKWARD_MAX_BYTES);
    const result = await slice('anchored.txt', line, 3, { index });
    expect(result.lines).toEqual([`row ${line}`, `row ${line + 1}`, `row ${line + 2}`]);
    expect(index.furthest('anchored.txt', version).offset).toBeGreaterThan(0);
  });
});
