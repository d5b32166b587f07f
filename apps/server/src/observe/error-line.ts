import type { Scrubber } from '@toolplane/scrubber';
import type { LogSink } from './request-log.js';

/** Writes one `level: error` JSON log line, scrubbed (a message may quote a secret). */
export function logErrorLine(log: LogSink, scrubber: Scrubber, message: string): void {
  log(scrubber.scrubText(JSON.stringify({ time: new Date().toISOString(), level: 'error', message })));
}
