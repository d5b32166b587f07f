// A second floor for the cold deep read: the same bytes read by as many threads as the counting
// threads use, into 256 KiB buffers, looking at none of them. The counting threads do this plus
// the count, so the cold read's distance to this floor is the count and the tool around it.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const READER_SOURCE = `'use strict';
const { parentPort } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const buffer = Buffer.allocUnsafeSlow(256 * 1024);
parentPort.on('message', ({ path, from, to }) => {
  const fd = openSync(path, 'r');
  try {
    for (let at = from; at < to; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - at), at);
      if (read === 0) break;
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage('done');
});
parentPort.postMessage('ready');
`;

/** Reader threads, started once; `read` times nothing itself. */
export interface RawReaders {
  /** Reads `[0, bytes)` of `path`, split evenly among the threads. */
  read(path: string, bytes: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the threads (as many as the counting threads: the parallelism, at most 4). */
export async function startRawReaders(): Promise<RawReaders> {
  const count = Math.max(1, Math.min(4, availableParallelism()));
  const workers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Worker>((resolve, reject) => {
          const worker = new Worker(READER_SOURCE, { eval: true });
          worker.once('message', () => resolve(worker));
          worker.once('error', reject);
        }),
    ),
  );
  return {
    read: async (path, bytes) => {
      const share = Math.ceil(bytes / count);
      await Promise.all(
        workers.map(
          (worker, index) =>
            new Promise<void>((resolve) => {
              worker.once('message', () => resolve());
              worker.postMessage({ path, from: index * share, to: Math.min(bytes, (index + 1) * share) });
            }),
        ),
      );
    },
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
