import { type Interface, createInterface } from 'node:readline';
import {
  type ApprovalChannel,
  type ApprovalDecision,
  type ApprovalRequest,
  ToolError,
} from '@toolplane/core';
import { APPROVAL_REPROMPT, approvalAnswer, approvalQuestion } from './terminal-question.js';

/** Options of {@link createTerminalApprovalChannel}. */
export interface TerminalApprovalOptions {
  /** Where answers are read (usually `process.stdin`). */
  readonly input: NodeJS.ReadableStream;
  /** Where questions are written (usually `process.stderr`, so stdout stays clean). */
  readonly output: NodeJS.WritableStream;
  /** Unclear answers before giving up with `deny`. Default 3. */
  readonly attempts?: number;
}

/** The error of a request made to, or cut off by, a closed channel. */
function closedError(): ToolError {
  return new ToolError(
    'APPROVAL_REQUIRED',
    'the terminal approval channel is closed, so nobody can be asked; connect another approval channel (or create a new terminal channel)',
  );
}

/** A request in the channel's line: started when the one before it is done. */
interface Entry {
  start(): void;
  fail(error: Error): void;
}

/**
 * An approval channel that asks on a terminal (any pair of streams), one question at a time.
 * Answers: `o`/`once`/`y` (allow once), `a`/`always`, `d`/`n`/`deny`. A request cancelled while
 * it waits for its turn leaves the line at once and is never printed; `close()` releases the
 * input and fails the question asked and those waiting (`APPROVAL_REQUIRED`, saying the channel
 * is closed), as it fails any later request.
 *
 * @example
 * const channel = createTerminalApprovalChannel({ input: process.stdin, output: process.stderr });
 */
export function createTerminalApprovalChannel(
  options: TerminalApprovalOptions,
): ApprovalChannel & { close(): void } {
  let lines: Interface | undefined;
  let closed = false;
  const waiting: Entry[] = [];
  let active: Entry | undefined;
  const attempts = options.attempts ?? 3;
  const readLine = (signal: AbortSignal): Promise<string | undefined> =>
    new Promise((resolve) => {
      if (closed || signal.aborted) return resolve(undefined);
      lines ??= createInterface({ input: options.input, terminal: false });
      const current = lines;
      const finish = (value: string | undefined): void => {
        current.off('line', onLine);
        current.off('close', onClose);
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onLine = (line: string): void => finish(line);
      const onClose = (): void => finish(undefined);
      const onAbort = (): void => finish(undefined);
      current.on('line', onLine);
      current.once('close', onClose);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    for (let attempt = 0; attempt < attempts && !signal.aborted && !closed; attempt++) {
      options.output.write(attempt === 0 ? approvalQuestion(request) : APPROVAL_REPROMPT);
      const line = await readLine(signal);
      if (line === undefined) break;
      const answer = approvalAnswer(line);
      if (answer) return answer;
    }
    if (closed) throw closedError();
    if (signal.aborted) options.output.write('\n(no answer in time: denied)\n');
    return 'deny';
  };
  const startNext = (): void => {
    if (active !== undefined || closed) return;
    active = waiting.shift();
    active?.start();
  };
  return {
    request(request, signal) {
      if (closed) return Promise.reject(closedError());
      if (signal.aborted) return Promise.resolve('deny');
      return new Promise<ApprovalDecision>((resolve, reject) => {
        let settled = false;
        const settle = (outcome: () => void): void => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', onAbort);
          const queued = waiting.indexOf(entry);
          if (queued !== -1) waiting.splice(queued, 1);
          outcome();
          if (active === entry) {
            active = undefined;
            startNext();
          }
        };
        const entry: Entry = {
          start: () =>
            void ask(request, signal).then(
              (decision) => settle(() => resolve(decision)),
              (error: Error) => settle(() => reject(error)),
            ),
          fail: (error) => settle(() => reject(error)),
        };
        // Cancelled while waiting for its turn: out of the line at once, never printed. (A question
        // already asked ends through its own read, which listens to the same signal.)
        const onAbort = (): void => {
          if (active !== entry) settle(() => resolve('deny'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push(entry);
        startNext();
      });
    },
    close() {
      if (closed) return;
      closed = true;
      for (const entry of waiting.splice(0)) entry.fail(closedError());
      lines?.close();
      lines = undefined;
    },
  };
}
