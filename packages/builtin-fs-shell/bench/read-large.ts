// The `read` benchmark on a ~1 GiB file: head slice, deep slice cold against the raw-read floor,
// deep slice after index-ahead, deep slice warm, deep slice right after a grep found the line, and
// the growth of peak RSS.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { median, result, timeEach } from '@toolplane/bench';
import type { ToolContext } from '@toolplane/core';
import { createBuiltinProvider } from '../src/index.js';
import { LINE_BYTES, generateLargeFile, lineText } from './large-file.js';
import { startRawReaders } from './raw-read-threads.js';

const PACKAGE = 'builtin-fs-shell';

async function readlineTo(path: string, offset: number, limit: number): Promise<string[]> {
  const lines: string[] = [];
  const stream = createReadStream(path);
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  for await (const line of reader) {
    number++;
    if (number >= offset) lines.push(line);
    if (lines.length >= limit) break;
  }
  reader.close();
  stream.destroy();
  return lines;
}

/**
 * The floor of a read by line number without an index on one thread: reading every byte before
 * the line with one reused buffer, looking at none of them. 8 MiB reads (fewer calls than the
 * tool's chunks). The counting threads can beat it: they split the same bytes among cores.
 */
async function rawRead(path: string, bytes: number, buffer: Buffer): Promise<number> {
  const handle = await open(path);
  try {
    let position = 0;
    while (position < bytes) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, bytes - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
    }
    return position;
  } finally {
    await handle.close();
  }
}

/** Samples the resident set every few milliseconds; `stop` returns the peak growth in MiB. */
function sampleRss(): { stop(): number } {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return (peak - start) / 1024 ** 2;
    },
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

function expectLine(text: unknown, line: number): void {
  const want = lineText(line).trimEnd();
  if (typeof text !== 'string' || !text.includes(want)) throw new Error(`read did not return line ${line}`);
}

/** Runs the large-file read benchmark in `root`; prints RESULT lines. */
export async function benchLargeRead(
  root: string,
  ctx: ToolContext,
  bytes: number,
  runs: number,
): Promise<void> {
  const path = join(root, 'large.txt');
  let started = performance.now();
  const totalLines = generateLargeFile(path, bytes);
  console.log(
    `generated ${(bytes / 1024 ** 3).toFixed(2)} GiB, ${totalLines} lines in ${((performance.now() - started) / 1000).toFixed(1)} s (in the page cache: "cold" below means no line index, not a cold disk)`,
  );
  const deep = Math.floor(totalLines / 2);
  const deepOffset = (deep - 1) * LINE_BYTES;
  const readText = async (
    provider: ReturnType<typeof createBuiltinProvider>,
    offset: number,
    limit = 2000,
  ) => {
    const outcome = await provider.execute('read', { path: 'large.txt', offset, limit }, ctx);
    if (!outcome.ok) throw new Error(`read failed: ${JSON.stringify(outcome.error)}`);
    const first = outcome.content[0];
    return first?.type === 'text' ? first.text : '';
  };

  // Tool reads first, alone, so the RSS growth sampled meanwhile is theirs.
  const rss = sampleRss();
  const plain = createBuiltinProvider({ workspace: root, tools: ['read'], indexAhead: false });
  const head = await timeEach(() => readText(plain, 1), runs, 2);
  const firstCold = await timed(async () => expectLine(await readText(plain, deep), deep));
  const warm = await timeEach(async () => expectLine(await readText(plain, deep + 17), deep + 17), runs, 1);
  await plain.close?.();

  // Index-ahead: the head read starts the build; the deep read comes once it is done.
  const ahead = createBuiltinProvider({ workspace: root, tools: ['read'] });
  started = performance.now();
  await readText(ahead, 1);
  await ahead.indexingIdle();
  const buildMs = performance.now() - started;
  const afterAhead = await timed(async () => expectLine(await readText(ahead, deep + 5), deep + 5));
  await ahead.close?.();
  // The model rarely waits: a deep read right after the head read meets the build midway.
  const eager = createBuiltinProvider({ workspace: root, tools: ['read'] });
  await readText(eager, 1);
  const duringAhead = await timed(async () => expectLine(await readText(eager, deep + 9), deep + 9));
  await eager.close?.();
  const rssGrowthMiB = rss.stop();

  // Cold deep reads (a fresh provider each, so no index; the process's counting threads are
  // up after the first), the same on the calling thread only, and the raw-read floor, rotated.
  const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  const readers = await startRawReaders();
  const colds: number[] = [];
  const serialColds: number[] = [];
  const floors: number[] = [];
  const threadFloors: number[] = [];
  const steps = ['cold', 'serial', 'floor', 'thread-floor'] as const;
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < steps.length; k++) {
      const step = steps[(i + k) % steps.length];
      if (step === 'floor') {
        floors.push(await timed(() => rawRead(path, deepOffset, buffer)));
        continue;
      }
      if (step === 'thread-floor') {
        threadFloors.push(await timed(() => readers.read(path, deepOffset)));
        continue;
      }
      const fresh = createBuiltinProvider({
        workspace: root,
        tools: ['read'],
        indexAhead: false,
        countThreads: step === 'cold',
      });
      const ms = await timed(async () => expectLine(await readText(fresh, deep), deep));
      (step === 'cold' ? colds : serialColds).push(ms);
      await fresh.close?.();
    }
  }
  // A grep that finds the deep line, then a read from a little before it (fresh providers: the
  // grep's line starts are the only thing the index holds).
  const afterGrep: number[] = [];
  const pattern = `^line ${String(deep).padStart(9, '0')} `;
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const searcher = createBuiltinProvider({ workspace: root, tools: ['read', 'grep'], indexAhead: false });
    const found = await searcher.execute('grep', { pattern, path: 'large.txt', output_mode: 'content' }, ctx);
    if (!found.ok) throw new Error(`grep failed: ${JSON.stringify(found.error)}`);
    afterGrep.push(await timed(async () => expectLine(await readText(searcher, deep - 20), deep - 20)));
    await searcher.close?.();
  }
  const headBaseline = await timeEach(() => readlineTo(path, 1, 2000), runs, 2);
  const readlineDeep = await timed(() => readlineTo(path, deep, 2000));

  await readers.close();
  const coldMs = median(colds);
  const serialColdMs = median(serialColds);
  const floorMs = median(floors);
  const threadFloorMs = median(threadFloors);
  const list = (values: number[]) => values.map((ms) => ms.toFixed(0)).join(' ');
  console.log(
    `deep line ${deep} starts at byte ${deepOffset} (${(deepOffset / 1024 ** 2).toFixed(0)} MiB); node:readline reaches it in ${readlineDeep.toFixed(0)} ms; first cold read (threads starting) ${firstCold.toFixed(0)} ms; cold runs ${list(colds)}; on the calling thread ${list(serialColds)}; floor runs ${list(floors)}; on the threads ${list(threadFloors)}`,
  );
  result(`${PACKAGE}/read-1gb-head-slice`, head.medianUs / 1000, 'ms', {
    baseline: 'node-readline',
    ratio: head.medianUs / headBaseline.medianUs,
  });
  result(`${PACKAGE}/read-1gb-raw-read-floor`, floorMs, 'ms');
  result(`${PACKAGE}/read-1gb-raw-read-floor-threads`, threadFloorMs, 'ms', {
    baseline: 'raw-read-floor',
    ratio: threadFloorMs / floorMs,
  });
  result(`${PACKAGE}/read-1gb-deep-slice-cold`, coldMs, 'ms', {
    baseline: 'raw-read-floor',
    ratio: coldMs / floorMs,
  });
  result(`${PACKAGE}/read-1gb-deep-slice-cold-one-thread`, serialColdMs, 'ms', {
    baseline: 'raw-read-floor',
    ratio: serialColdMs / floorMs,
  });
  result(`${PACKAGE}/read-1gb-deep-slice-cold-first`, firstCold, 'ms');
  result(`${PACKAGE}/read-1gb-index-ahead-build`, buildMs, 'ms');
  result(`${PACKAGE}/read-1gb-deep-slice-after-index-ahead`, afterAhead, 'ms');
  result(`${PACKAGE}/read-1gb-deep-slice-during-index-ahead`, duringAhead, 'ms');
  result(`${PACKAGE}/read-1gb-deep-slice-warm`, warm.medianUs / 1000, 'ms');
  result(`${PACKAGE}/read-1gb-deep-slice-after-grep`, median(afterGrep), 'ms', {
    baseline: 'deep-slice-cold',
    ratio: median(afterGrep) / coldMs,
  });
  result(`${PACKAGE}/read-1gb-peak-rss-growth`, rssGrowthMiB, 'MiB');
}
