import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage } from '@toolplane/core';

/**
 * From now on, a message the client cannot handle is reported and dropped, and the messages
 * after it are still delivered. Both SDK clients quote a message they cannot place (an unknown
 * type, an answer to an unknown id, progress for an unknown token) with `JSON.stringify`, which
 * overflows the stack on one nested a few thousand levels deep (JSON text can nest 100 000):
 * the error escaped the transport's delivery as an uncaught exception, and every message queued
 * behind it (the answer a start waited for) was never delivered.
 */
export function guardDelivery(transport: Transport, report: (message: string) => void): void {
  const client = transport.onmessage;
  transport.onmessage = (message, extra) => {
    try {
      client?.(message, extra);
    } catch (error) {
      const why = errorMessage(error);
      report(
        `a message from the server could not be handled (${why.length > 200 ? `${why.slice(0, 200)}...` : why}): dropped; fix the server`,
      );
    }
  };
}
