import { createInterface } from 'node:readline';

/** Lines typed ahead of a question that are kept for it; more are dropped. */
const TYPED_AHEAD_LIMIT = 1000;
/** Prompts that may wait for their turn; more are declined at once. */
const QUEUE_LIMIT = 200;

/** Reads one answer line within a turn; rejects when the terminal closes or `signal` aborts. */
export type AskLine = (question: string) => Promise<string>;

/**
 * The one reader of a process's terminal: every prompt (approvals, elicitations) takes a turn,
 * one at a time, so two questions never interleave and never steal each other's lines.
 */
export interface TerminalReader {
  /** Runs `prompt` when the prompts queued before it are done. */
  turn<T>(signal: AbortSignal, prompt: (ask: AskLine) => Promise<T>): Promise<T>;
  /** Writes to the terminal. */
  write(text: string): void;
  /**
   * Drops the lines typed before now and returns how many: a question whose answer gives
   * consent (an approval) must be answered after it was shown, never by a line typed ahead.
   */
  discardTypedAhead(): number;
  /** Releases the terminal: the question asked and those waiting are declined. */
  close(): void;
}

/**
 * A shared, serialized terminal reader on `input` (stdin when it is a terminal, or `/dev/tty`)
 * with questions written to `output`. When the input ends (EOF, the terminal closed) the prompt
 * being asked fails with a message saying so, and every prompt queued after it too.
 *
 * @example
 * const reader = createTerminalReader(process.stdin, process.stderr);
 * const name = await reader.turn(signal, (ask) => ask('name? '));
 */
export function createTerminalReader(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): TerminalReader {
  const lines = createInterface({ input, terminal: false });
  const typed: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended: string | undefined;
  let queued = 0;
  let queue: Promise<unknown> = Promise.resolve();
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else if (typed.length < TYPED_AHEAD_LIMIT) typed.push(line);
  });
  lines.on('close', () => {
    ended ??= 'the terminal closed (end of input) before an answer';
    for (const next of waiting.splice(0)) next(undefined);
  });
  const readLine = (signal: AbortSignal): Promise<string> => {
    const line = typed.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (ended !== undefined) return Promise.reject(new Error(ended));
    return new Promise((resolve, reject) => {
      const answer = (value: string | undefined): void => {
        signal.removeEventListener('abort', abort);
        if (value === undefined) reject(new Error(ended));
        else resolve(value);
      };
      const abort = (): void => {
        const at = waiting.indexOf(answer);
        if (at >= 0) waiting.splice(at, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('no answer in time'));
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      waiting.push(answer);
    });
  };
  return {
    turn(signal, prompt) {
      if (ended !== undefined) return Promise.reject(new Error(ended));
      if (queued >= QUEUE_LIMIT)
        return Promise.reject(
          new Error(`${QUEUE_LIMIT} questions already wait for this terminal; answer those first`),
        );
      queued++;
      const run = async (): Promise<never> => {
        if (ended !== undefined) throw new Error(ended);
        if (signal.aborted) throw new Error('no answer in time');
        return (await prompt((question) => {
          output.write(question);
          return readLine(signal);
        })) as never;
      };
      const mine = queue.then(run);
      queue = mine.then(
        () => queued--,
        () => queued--,
      );
      return mine;
    },
    write(text) {
      output.write(text);
    },
    discardTypedAhead() {
      return typed.splice(0).length;
    },
    close() {
      ended ??= 'the terminal prompt was closed';
      lines.close();
    },
  };
}
