import { type Interface, createInterface } from 'node:readline';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '@toolplane/core';
import { createSerialQueue } from '../json-file.js';

/** Options of {@link createTerminalApprovalChannel}. */
export interface TerminalApprovalOptions {
  /** Where answers are read (usually `process.stdin`). */
  readonly input: NodeJS.ReadableStream;
  /** Where questions are written (usually `process.stderr`, so stdout stays clean). */
  readonly output: NodeJS.WritableStream;
  /** Unclear answers before giving up with `deny`. Default 3. */
  readonly attempts?: number;
}

/** Answers by what is typed (a Map: `constructor` is no answer, as in a plain object it would be). */
const ANSWERS: ReadonlyMap<string, ApprovalDecision> = new Map([
  ['o', 'allow-once'],
  ['once', 'allow-once'],
  ['y', 'allow-once'],
  ['yes', 'allow-once'],
  ['a', 'allow-always'],
  ['always', 'allow-always'],
  ['d', 'deny'],
  ['n', 'deny'],
  ['no', 'deny'],
  ['deny', 'deny'],
]);

function question(request: ApprovalRequest): string {
  const lines = ['', `Approval needed: ${request.tool} (risk ${request.risk})`, `  why: ${request.reason}`];
  if (request.command !== undefined) lines.push(`  command: ${request.command}`);
  else lines.push(`  arguments: ${JSON.stringify(request.args).slice(0, 400)}`);
  if (request.suggestedRule) lines.push(`  "always" adds: ${request.suggestedRule}`);
  lines.push(`  (no answer in ${Math.round(request.timeoutMs / 1000)} s denies)`);
  return `${lines.join('\n')}\nAllow [o]nce, [a]lways, or [d]eny? `;
}

/**
 * An approval channel that asks on a terminal (any pair of streams), one question at a time.
 * Answers: `o`/`once`/`y` (allow once), `a`/`always`, `d`/`n`/`deny`.
 *
 * @example
 * const channel = createTerminalApprovalChannel({ input: process.stdin, output: process.stderr });
 */
export function createTerminalApprovalChannel(
  options: TerminalApprovalOptions,
): ApprovalChannel & { close(): void } {
  let lines: Interface | undefined;
  const queue = createSerialQueue();
  const attempts = options.attempts ?? 3;
  const readLine = (signal: AbortSignal): Promise<string | undefined> =>
    new Promise((resolve) => {
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
      if (signal.aborted) return finish(undefined);
      current.on('line', onLine);
      current.once('close', onClose);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  return {
    request(request, signal) {
      return queue(async () => {
        for (let attempt = 0; attempt < attempts && !signal.aborted; attempt++) {
          options.output.write(attempt === 0 ? question(request) : 'Please answer o, a or d: ');
          const line = await readLine(signal);
          if (line === undefined) break;
          const answer = ANSWERS.get(line.trim().toLowerCase());
          if (answer) return answer;
        }
        if (signal.aborted) options.output.write('\n(no answer in time: denied)\n');
        return 'deny';
      });
    },
    close() {
      lines?.close();
      lines = undefined;
    },
  };
}
