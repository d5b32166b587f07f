import { appendFile, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, newlinesBefore } from '../helpers/index.js';
import { CountThreads } from '../../src/files/count-threads.js';
import { IndexAhead } from '../../src/files/index-ahead.js';
import { type FileVersion, LineIndexCache, versionOf } from '../../src/files/line-index.js';
import { ScannerPool } from '../../src/files/newline-scanner.js';
import { newlineModule } from '../../src/files/newline-wasm.js';
import { readSlice } from '../../src/files/read-slice.js';

let dir: string;
let cleanup: () => Promise<void>;
const LINES = 200_000;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('tp-ahead-'));
});
afterAll(() => cleanup());

async function writeRows(name: string, count: number, width = 0): Promise<string> {
  const path = join(dir, name);
  const pad = width > 0 ? ` ${'.'.repeat(width)}` : '';
  await writeFile(path, `${Array.from({ length: count }, (_, i) => `row ${i + 1}${pad}`).join('\n')}\n`);
  return path;
}

async function versionAt(path: string): Promise<FileVersion> {
  const handle = await open(path);
  try {
    return versionOf(await handle.stat());
  } finally {
    await handle.close();
  }
}

/** A builder with small chunks, so a build of a few MiB takes hundreds of reads and can be caught midway. */
function setup(capacity = 4096) {
  const index = new LineIndexCache({ minSpacing: 1024 });
  const scanners = new ScannerPool({ capacity });
  const ahead = new IndexAhead({ index, scanners, minBytes: 0 });
  return { index, scanners, ahead };
}

/** Each checkpoint's count equals the newlines before its offset, up to the end of the file. */
async function expectExactIndex(index: LineIndexCache, path: string, version: FileVersion): Promise<void> {
  const text = await readFile(path);
  for (const line of [2, 1000, 54_321, 123_456, LINES, LINES + 1]) {
    const checkpoint = index.nearest(path, version, line);
    expect(checkpoint.newlines).toBe(newlinesBefore(text, checkpoint.offset));
    expect(checkpoint.newlines).toBeLessThanOrEqual(Math.max(0, line - 2));
  }
  expect(index.furthest(path, version)).toEqual({ offset: text.length, newlines: LINES });
}

async function readAt(
  path: string,
  offset: number,
  index: LineIndexCache,
  scanners: ScannerPool,
  ahead?: IndexAhead,
): Promise<string[]> {
  const handle = await open(path);
  try {
    const version = versionOf(await handle.stat());
    await ahead?.waitFor(path, version, offset);
    const slice = await readSlice({
      handle,
      key: path,
      version,
      offset,
      limit: 2,
      maxBytes: 1 << 20,
      maxLineLength: 1000,
      index,
      scanners,
    });
    return slice.lines;
  } finally {
    await handle.close();
  }
}

describe('IndexAhead', () => {
  it('builds the whole index, every checkpoint exact', async () => {
    const path = await writeRows('whole.txt', LINES);
    const { index, scanners, ahead } = setup();
    const version = await versionAt(path);
    ahead.request(path, version, () => open(path));
    expect(await ahead.running()).toBe('complete');
    expect(index.isComplete(path, version)).toBe(true);
    await expectExactIndex(index, path, version);
    expect(await readAt(path, 150_000, index, scanners)).toEqual(['row 150000', 'row 150001']);
    // A second request for the indexed version starts nothing.
    ahead.request(path, version, () => open(path));
    expect(ahead.running()).toBeUndefined();
  });

  it('gives right lines to reads that arrive while it runs, waiting or not', async () => {
    const path = await writeRows('during.txt', LINES);
    const { index, scanners, ahead } = setup();
    const version = await versionAt(path);
    ahead.request(path, version, () => open(path));
    const [waited, scanned] = await Promise.all([
      readAt(path, 180_000, index, scanners, ahead),
      readAt(path, 170_000, index, scanners),
    ]);
    expect(waited).toEqual(['row 180000', 'row 180001']);
    expect(scanned).toEqual(['row 170000', 'row 170001']);
    expect(await readAt(path, 3, index, scanners, ahead)).toEqual(['row 3', 'row 4']);
    await ahead.idle();
    expect(await readAt(path, LINES, index, scanners)).toEqual([`row ${LINES}`]);
  });

  it('lets a waiting read give up when its signal aborts, without stopping the build', async () => {
    const path = await writeRows('wait-abort.txt', LINES);
    const { index, ahead } = setup(1024);
    const version = await versionAt(path);
    ahead.request(path, version, () => open(path));
    const controller = new AbortController();
    const waiting = ahead.waitFor(path, version, LINES, controller.signal);
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(await ahead.running()).toBe('complete');
    expect(index.isComplete(path, version)).toBe(true);
  });

  it('stops when the file changes under it, and the new version reads right', async () => {
    const path = await writeRows('changing.txt', LINES);
    const { index, scanners, ahead } = setup(1024);
    const version = await versionAt(path);
    ahead.request(path, version, () => open(path));
    const outcome = ahead.running();
    // Wait until the build is under way (line 1000 of 200 000 counted), then change the file.
    await ahead.waitFor(path, version, 1000);
    await appendFile(path, 'row appended\n');
    expect(await outcome).toBe('changed');
    const changed = await versionAt(path);
    expect(index.isComplete(path, changed)).toBe(false);
    expect(await readAt(path, LINES + 1, index, scanners)).toEqual(['row appended']);
  });

  it('never uses an index of an older version of the file', async () => {
    const path = await writeRows('versions.txt', 50_000);
    const { index, scanners, ahead } = setup();
    const first = await versionAt(path);
    ahead.request(path, first, () => open(path));
    await ahead.idle();
    expect(await readAt(path, 40_000, index, scanners)).toEqual(['row 40000', 'row 40001']);
    // Longer lines: every line of the new version starts elsewhere; a checkpoint of the first
    // version would give wrong numbers.
    await writeRows('versions.txt', 50_000, 7);
    const second = await versionAt(path);
    expect(second).not.toEqual(first);
    expect(index.nearest(path, second, 40_000)).toEqual({ offset: 0, newlines: 0 });
    expect(await readAt(path, 40_000, index, scanners)).toEqual(['row 40000 .......', 'row 40001 .......']);
  });

  it('runs one build at a time: a request for another file cancels the running one', async () => {
    const first = await writeRows('first.txt', LINES);
    const second = await writeRows('second.txt', 20_000);
    const { index, ahead } = setup(1024);
    const firstVersion = await versionAt(first);
    ahead.request(first, firstVersion, () => open(first));
    const firstOutcome = ahead.running();
    await ahead.waitFor(first, firstVersion, 500);
    const secondVersion = await versionAt(second);
    ahead.request(second, secondVersion, () => open(second));
    expect(await firstOutcome).toBe('aborted');
    await ahead.idle();
    expect(index.isComplete(second, secondVersion)).toBe(true);
    expect(index.isComplete(first, firstVersion)).toBe(false);
    // The cancelled build's checkpoints stay; a new request resumes from them.
    const resumedFrom = index.furthest(first, firstVersion);
    expect(resumedFrom.newlines).toBeGreaterThanOrEqual(499);
    ahead.request(first, firstVersion, () => open(first));
    expect(await ahead.running()).toBe('complete');
  });

  it('stops for good on close', async () => {
    const path = await writeRows('closing.txt', LINES);
    const { index, ahead } = setup(1024);
    const version = await versionAt(path);
    ahead.request(path, version, () => open(path));
    const outcome = ahead.running();
    await ahead.waitFor(path, version, 1000);
    await ahead.close();
    expect(await outcome).toBe('aborted');
    expect(index.isComplete(path, version)).toBe(false);
    ahead.request(path, version, () => open(path));
    expect(ahead.running()).toBeUndefined();
  });

  it('skips files below its size threshold', async () => {
    const path = await writeRows('small.txt', 100);
    const ahead = new IndexAhead({
      index: new LineIndexCache(),
      scanners: new ScannerPool(),
      minBytes: 1024 * 1024,
    });
    ahead.request(path, await versionAt(path), () => open(path));
    expect(ahead.running()).toBeUndefined();
  });
});

describe('LineIndexCache', () => {
  it('stays bounded in files and checkpoints', () => {
    const index = new LineIndexCache({ maxFiles: 3, maxCheckpoints: 10, minSpacing: 1 });
    const version = { size: 1000, mtimeMs: 1, ino: 1 };
    for (let file = 0; file < 10; file++) {
      for (let offset = 1; offset <= 1000; offset++) index.record(`f${file}`, version, offset, offset);
    }
    expect(index.size).toBe(3);
    // Spacing of size / maxCheckpoints = 100 bytes: about 10 checkpoints, not 1000.
    expect(index.nearest('f9', version, 550)).toEqual({ offset: 500, newlines: 500 });
    expect(index.nearest('f0', version, 550)).toEqual({ offset: 0, newlines: 0 });
  });
});

describe('IndexAhead on counting threads', () => {
  let threads: CountThreads;
  beforeAll(() => {
    const module = newlineModule();
    if (!module) throw new Error('this runtime has no WebAssembly SIMD; Node >= 20.19 has it');
    threads = new CountThreads(module, {
      threads: 2,
      segmentBytes: 1024,
      blockBytes: 8192,
      chunkBytes: 1024,
    });
  });
  afterAll(() => threads.close());

  function threaded() {
    const index = new LineIndexCache({ minSpacing: 1024 });
    const scanners = new ScannerPool({ capacity: 4096 });
    return { index, scanners, ahead: new IndexAhead({ index, scanners, minBytes: 0, threads }) };
  }

  it('builds the whole index, every checkpoint exact', async () => {
    const path = await writeRows('threaded.txt', LINES, 3);
    const { index, scanners, ahead } = threaded();
    const version = await versionAt(path);
    const checkpoints: number[] = [];
    const record = index.record.bind(index);
    index.record = (key, at, offset, newlines) => {
      checkpoints.push(offset);
      record(key, at, offset, newlines);
    };
    ahead.request(path, version, () => open(path));
    expect(await ahead.running()).toBe('complete');
    const text = await readFile(path);
    // The threads offered a checkpoint every 1024 bytes (their segment; the 4096-byte
    // scanner alone offers one per chunk), in order.
    expect(checkpoints.length).toBeGreaterThanOrEqual(Math.floor(text.length / 1024));
    expect([...checkpoints].sort((a, b) => a - b)).toEqual(checkpoints);
    await expectExactIndex(index, path, version);
    expect(await readAt(path, 150_000, index, scanners)).toEqual(['row 150000 ...', 'row 150001 ...']);
  });

  it('gives right lines to reads that arrive while it runs', async () => {
    const path = await writeRows('threaded-during.txt', LINES);
    const { index, scanners, ahead } = threaded();
    const version = await versionAt(path);
    ahead.request(path, version, () => open(path));
    const outcome = ahead.running();
    const [waited, scanned] = await Promise.all([
      readAt(path, 180_000, index, scanners, ahead),
      readAt(path, 170_000, index, scanners),
    ]);
    expect(waited).toEqual(['row 180000', 'row 180001']);
    expect(scanned).toEqual(['row 170000', 'row 170001']);
    expect(await outcome).toBe('complete');
  });
});
