import { performance } from 'node:perf_hooks';
import { ToolError } from '@toolplane/core';
import { createFileSearchState } from './file-search.js';
import { linearLineFinder } from './linear-lines.js';
import { NodeWalk } from './node-walk.js';
import type { SearchOutcome } from './results.js';
import type { SearchRequest } from './search-request.js';
import { SliceCut, runBounded } from './slice-guard.js';

// Work runs in synchronous slices (much faster than one promise per file) and yields to the
// event loop between them, so timers and aborts still run during a long search.
const SLICE_MS = 10;

/**
 * How long one slice may hold the thread before the watchdog stops it. A slice is about
 * {@link SLICE_MS} of work (plus one chunk of a large file); only a regular expression that
 * backtracks, or a host stalled for a second, gets near this.
 */
export const BACKTRACK_BUDGET_MS = 1000;

/**
 * How long a slice may hold the thread once matching is linear: past it, what is slow is not
 * the pattern (a `!(...)` glob filter, left to picomatch, that backtracks) and the search fails.
 */
export const LINEAR_SLICE_BUDGET_MS = 10_000;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The pure-Node search engine ({@link NodeWalk}) in slices. Matching uses V8's engine, which
 * backtracks: a pattern such as `(a+)+$`, or `a.*b` on a long line, can take exponential or
 * quadratic time, and nothing else can interrupt a running regular expression. So each slice
 * runs under a watchdog; a slice it stops is run again with a linear-time engine (RE2) for the
 * rest of the search, which then gives the same lines a backtracking engine would have, in
 * time linear in the text.
 */
export async function searchWithNode(request: SearchRequest): Promise<SearchOutcome> {
  const state = createFileSearchState(request.pattern);
  const literal =
    request.pattern.literal === undefined ? undefined : Buffer.from(request.pattern.literal, 'utf8');
  const walk = new NodeWalk(request, state, literal);
  let linear = false;
  try {
    for (;;) {
      if (request.signal?.aborted) throw request.signal.reason;
      const slice = () => walk.work(performance.now() + SLICE_MS);
      let done: boolean;
      try {
        done = runBounded(slice, linear ? LINEAR_SLICE_BUDGET_MS : BACKTRACK_BUDGET_MS);
      } catch (error) {
        if (!(error instanceof SliceCut)) throw error;
        if (linear) throw tooSlow(request);
        walk.recover();
        state.findLines = linearLineFinder(request.pattern);
        linear = true;
        continue;
      }
      if (done) break;
      await yieldToEventLoop();
    }
  } finally {
    walk.close();
  }
  return { ...walk.outcome(), engine: 'node' };
}

function tooSlow(request: SearchRequest): ToolError {
  const globs = request.globs.length > 0 ? ` (glob filter: ${request.globs.join(', ')})` : '';
  return new ToolError(
    'INVALID_ARGUMENTS',
    `the search held the process for over ${LINEAR_SLICE_BUDGET_MS / 1000} s on one step even with a linear-time pattern engine: a glob filter that only picomatch can read (a !(...) negation) backtracks on long names${globs}; write it without !(...), or install ripgrep (rg) on the host`,
  );
}
