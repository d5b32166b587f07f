// The code of one counting thread, as plain JavaScript run with `new Worker(source, { eval: true })`:
// a string, not a module file, so the same thread starts from `src/` under vitest and from `dist/`.
//
// workerData: { module: WebAssembly.Module (the newline kernel), chunkBytes }
// message in:  { id, fd, start, end, blocks, blockBytes, segmentBytes, control: SharedArrayBuffer }
//   control[0] is the next block to claim, control[1] turns non-zero to stop.
// messages out: { id: 0, type: 'ready' } once started,
//               { id, type: 'block', block, counts } (newlines per segment, in order),
//               { id, type: 'failed', message }, then always { id, type: 'done' }.

/** Index of the next unclaimed block in the job's control array. */
const NEXT_BLOCK = 0;
/** Index of the stop flag in the job's control array. */
export const STOP = 1;

export const COUNT_WORKER_SOURCE = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { readSync } = require('node:fs');
const chunkBytes = workerData.chunkBytes;
const memory = new WebAssembly.Memory({ initial: Math.ceil(chunkBytes / 65536) });
const count = new WebAssembly.Instance(workerData.module, { env: { memory } }).exports.count;
const buffer = new Uint8Array(memory.buffer, 0, chunkBytes);

function scanBlock(job, control, block) {
  const from = job.start + block * job.blockBytes;
  const to = Math.min(job.end, from + job.blockBytes);
  const counts = [];
  let position = from;
  let segmentEnd = Math.min(to, from + job.segmentBytes);
  let newlines = 0;
  while (position < to) {
    if (Atomics.load(control, ${STOP}) !== 0) return null;
    const read = readSync(job.fd, buffer, 0, Math.min(chunkBytes, segmentEnd - position), position);
    if (read === 0) throw new Error('the file ended at byte ' + position + ' instead of ' + job.end + ': it changed during the scan');
    newlines += count(0, read);
    position += read;
    if (position === segmentEnd) {
      counts.push(newlines);
      newlines = 0;
      segmentEnd = Math.min(to, segmentEnd + job.segmentBytes);
    }
  }
  return counts;
}

parentPort.postMessage({ id: 0, type: 'ready' });

parentPort.on('message', (job) => {
  const control = new Int32Array(job.control);
  try {
    while (Atomics.load(control, ${STOP}) === 0) {
      const block = Atomics.add(control, ${NEXT_BLOCK}, 1);
      if (block >= job.blocks) break;
      const counts = scanBlock(job, control, block);
      if (counts === null) break;
      parentPort.postMessage({ id: job.id, type: 'block', block, counts });
    }
  } catch (error) {
    parentPort.postMessage({ id: job.id, type: 'failed', message: String(error && error.message ? error.message : error) });
  }
  parentPort.postMessage({ id: job.id, type: 'done' });
});
`;
