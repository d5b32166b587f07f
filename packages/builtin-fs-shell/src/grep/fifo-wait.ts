import { readFileSync, readdirSync } from 'node:fs';

/**
 * Kernel functions a thread sleeps in while `open` of a FIFO waits for the other end: the
 * name Linux shows in `/proc/PID/task/TID/wchan` (`wait_for_partner` since 2.6; `fifo_open`
 * where the compiler inlined it).
 */
const FIFO_OPEN_WAITS = new Set(['wait_for_partner', 'fifo_open']);

/** How often a running ripgrep is looked at, in milliseconds. */
const POLL_MS = 250;

/**
 * Whether any thread of a process sleeps in `open` of a FIFO with no writer (Linux `/proc`;
 * false where there is none, or where the kernel hides `wchan`).
 */
export function waitsOpeningFifo(pid: number): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return false;
  }
  for (const task of tasks) {
    try {
      if (FIFO_OPEN_WAITS.has(readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8').trim())) return true;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return false;
}

/**
 * Watches a process and calls `onStuck` once when two looks in a row ({@link POLL_MS} apart)
 * find it waiting to open a FIFO: ripgrep opens each `.gitignore` it meets with a blocking
 * `open`, and a FIFO by that name with no writer would hold it until the call's deadline.
 * Returns the function that stops the watch.
 */
export function watchFifoOpenWait(pid: number, onStuck: () => void): () => void {
  let seen = false;
  const timer = setInterval(() => {
    const waiting = waitsOpeningFifo(pid);
    if (waiting && seen) {
      clearInterval(timer);
      onStuck();
    }
    seen = waiting;
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** A ripgrep run stopped because it waited to open a FIFO (see {@link watchFifoOpenWait}). */
export class RipgrepWaitedOnFifo extends Error {
  constructor() {
    super('ripgrep waited to open a FIFO with no writer');
    this.name = 'RipgrepWaitedOnFifo';
  }
}

/** The note of a search the Node engine took over from a ripgrep run stopped on a FIFO. */
export const FIFO_TAKEOVER_NOTE =
  'ripgrep waited to open a FIFO in the tree, likely one named .gitignore, so the Node engine searched instead, passing over ignore files that are not regular files: remove the FIFO to search with ripgrep again';
