import { replayStartErrors } from '../session/start-errors.js';
import type { McpEventListener } from './events.js';

/** Protocol errors of a burst reported one by one, with their message. */
export const PROTOCOL_ERRORS_ONE_BY_ONE = 10;
/** How often the errors held back in a burst are reported as one count. */
export const PROTOCOL_ERROR_SUMMARY_MS = 1_000;
/** Characters of the last held-back message quoted in a summary. */
const LAST_MESSAGE_CHARS = 300;

/**
 * Coalesces a server's protocol errors (junk lines, messages no schema accepts), which a broken
 * or hostile server can send by the thousand: the first {@link PROTOCOL_ERRORS_ONE_BY_ONE} of a
 * burst are reported one by one, the rest are counted and reported as one summary (the count
 * and the last message) every {@link PROTOCOL_ERROR_SUMMARY_MS}, and when the session ends. A
 * whole quiet interval ends the burst. Memory: a count and one message, however many arrive.
 */
export class ProtocolErrorReports {
  private reported = 0;
  private held = 0;
  private last = '';
  private seen = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly report: (message: string, count?: number) => void) {}

  /** One protocol error. */
  add(message: string): void {
    this.seen = true;
    if (this.reported < PROTOCOL_ERRORS_ONE_BY_ONE) {
      this.reported++;
      this.report(message);
    } else {
      this.held++;
      this.last = message;
    }
    this.timer ??= this.schedule();
  }

  /** Reports what is held back now (the session ended). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.summarize();
  }

  private schedule(): NodeJS.Timeout {
    const timer = setTimeout(() => this.tick(), PROTOCOL_ERROR_SUMMARY_MS);
    timer.unref?.();
    return timer;
  }

  private tick(): void {
    this.timer = undefined;
    this.summarize();
    if (this.seen) {
      this.seen = false;
      this.timer = this.schedule();
    } else {
      this.reported = 0; // a quiet interval: the next burst is reported one by one again
    }
  }

  private summarize(): void {
    if (this.held === 0) return;
    const count = this.held;
    const last =
      this.last.length > LAST_MESSAGE_CHARS ? `${this.last.slice(0, LAST_MESSAGE_CHARS)}...` : this.last;
    this.held = 0;
    this.last = '';
    this.report(`${count} more protocol errors, not reported one by one (last: ${last})`, count);
  }
}

/** {@link ProtocolErrorReports} that report as `protocol-error` events of `server`. */
export function protocolErrorEvents(server: string, emit: McpEventListener): ProtocolErrorReports {
  return new ProtocolErrorReports((message, count) =>
    emit({ type: 'protocol-error', server, message, ...(count === undefined ? {} : { count }) }),
  );
}

/**
 * Reports, as `protocol-error` events of `server`, the protocol errors a session saw while its
 * start failed with `error` (a stdio server's stdout that is not JSON-RPC, see
 * `keepStartErrors`), coalesced as a session's are. No one else hears them: the session was
 * never adopted.
 */
export function reportStartErrors(server: string, emit: McpEventListener, error: unknown): void {
  const reports = protocolErrorEvents(server, emit);
  replayStartErrors(error, (message) => reports.add(message));
  reports.flush();
}
