import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * How many requests given up on are remembered. A server should not answer a cancelled request
 * at all (the spec's advice), so most ids are never heard of again: the oldest are forgotten.
 */
const REMEMBERED = 1_024;

type Fields = Record<string, unknown>;

/**
 * The key of a request id or progress token. JSON-RPC asks an answer to carry the request's id
 * as it was (a string is not a number), but both SDK clients look an answer up by
 * `Number(id)`, so a live answer `"3"` ends request `3` (and progress token `"3"` is token
 * `3`, and so are `"03"` and `"3.0"`): a late one is matched the same way, or it was reported
 * as unknown while a timely one was taken. A string that is no number (`"tp-3"`, the direct
 * stdio path's ids) or only blanks stays itself.
 */
export function keyOf(id: unknown): unknown {
  if (typeof id !== 'string' || id.trim() === '') return id;
  const number = Number(id);
  return Number.isFinite(number) ? number : id;
}

/**
 * The requests a client gave up on: it sent `notifications/cancelled` for them (a timeout, a
 * caller's cancel, `maxTotalTimeoutMs`). The spec says the sender of a cancel should ignore an
 * answer that comes after it, and one may always come (the cancel and the answer cross on the
 * wire), so such an answer, and progress for such a request, is dropped quietly on every path.
 * An answer to an id never sent, or a second answer to one already answered, is still the
 * server's mistake and reported ("unknown message ID").
 */
export class LateAnswers {
  private readonly ids = new Set<unknown>();

  /** Remembers a request given up on, if `message` is a `notifications/cancelled` for one. */
  noteSent(message: unknown): void {
    const fields = message as Fields | undefined;
    if (fields?.method !== 'notifications/cancelled') return;
    const id = (fields.params as Fields | undefined)?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    this.ids.delete(keyOf(id));
    this.ids.add(keyOf(id));
    if (this.ids.size > REMEMBERED) this.ids.delete(this.ids.values().next().value);
  }

  /**
   * Whether `message` is an answer, or a progress notification, for a request given up on.
   * An answer ends the request: its id is forgotten, so a second answer is reported.
   */
  isLate(message: unknown): boolean {
    if (typeof message !== 'object' || message === null || this.ids.size === 0) return false;
    const fields = message as Fields;
    if (fields.method === 'notifications/progress') {
      return this.ids.has(keyOf((fields.params as Fields | undefined)?.progressToken));
    }
    if (fields.method !== undefined || !('result' in fields || 'error' in fields)) return false;
    return this.ids.delete(keyOf(fields.id));
  }

  /**
   * Follows an SDK client's transport: its sends (before the client connects), and, from
   * `afterConnect()` on, what it delivers, so a late answer never reaches the client (which
   * would report it as an answer to an unknown id).
   */
  follow(transport: Transport): { afterConnect(): void } {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.noteSent(message);
      return send(message, options);
    };
    return {
      // The client installs its handler when it connects, and keeps what it found before it.
      afterConnect: () => {
        const client = transport.onmessage;
        transport.onmessage = (message, extra) => {
          if (!this.isLate(message)) client?.(message, extra);
        };
      },
    };
  }
}
