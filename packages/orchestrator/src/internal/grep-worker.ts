import { Worker } from 'node:worker_threads';
import { ToolError } from '@toolplane/core';

/**
 * The grep of a stored output, in a worker thread: a model's regular expression can backtrack
 * for hours (`(a+)+$` on a line of a's), and a regex cannot be interrupted on the thread that
 * runs it. The worker is terminated when the call's signal aborts (its deadline, a cancel,
 * close()), so the call ends and every other call keeps running meanwhile.
 */
export function grepInWorker(
  job: {
    readonly file: string;
    readonly pattern: string;
    readonly flags: string;
    readonly context: number;
    readonly maxMatches: number;
    readonly maxLine: number;
    readonly lines: number;
  },
  signal: AbortSignal,
): Promise<string> {
  if (signal.aborted) return Promise.reject(stopped(signal));
  return new Promise((resolve, reject) => {
    const worker = new Worker(GREP_SOURCE, { eval: true, workerData: job });
    const end = (): void => {
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
    };
    const onAbort = (): void => {
      end();
      reject(stopped(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (text: string) => {
      end();
      resolve(text);
    });
    worker.once('error', (error) => {
      end();
      reject(error);
    });
    worker.once('exit', () => {
      signal.removeEventListener('abort', onAbort);
      reject(new ToolError('INTERNAL', 'the grep worker ended without an answer'));
    });
  });
}

function stopped(signal: AbortSignal): unknown {
  return signal.reason ?? new ToolError('CANCELLED', 'the grep was cancelled');
}

/** The worker's code (CommonJS, evaluated: the same in the sources and the build). */
const GREP_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
(async () => {
  const { file, pattern, flags, context, maxMatches, maxLine, lines } = workerData;
  const regex = new RegExp(pattern, flags);
  const out = [];
  const before = [];
  let number = 0, matches = 0, after = 0, lastPrinted = 0;
  const reader = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of reader) {
      number++;
      const probe = line.length > maxLine ? line.slice(0, maxLine) : line;
      if (regex.test(probe)) {
        matches++;
        if (matches > maxMatches) break;
        const start = number - before.length;
        if (lastPrinted && start > lastPrinted + 1) out.push('--');
        for (let i = 0; i < before.length; i++) out.push(start + i + '-' + before[i]);
        before.length = 0;
        out.push(number + ':' + line);
        lastPrinted = number;
        after = context;
      } else if (after > 0) {
        out.push(number + '-' + line);
        lastPrinted = number;
        after--;
      } else if (context > 0) {
        before.push(line);
        if (before.length > context) before.shift();
      }
    }
  } finally {
    reader.close();
  }
  const shown = Math.min(matches, maxMatches);
  const header = '[' + shown + ' matching line' + (shown === 1 ? '' : 's') +
    (matches > maxMatches ? ' (stopped at ' + maxMatches + ')' : '') + ' of ' + lines + ' lines]';
  parentPort.postMessage(header + '\\n' + out.join('\\n'));
})();
`;
