import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type Id = string | number;

/** Requests a transport received and has not answered yet. */
export interface PendingRequests {
  readonly size: number;
  /** Resolves when every request received so far is answered, or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
}

/**
 * Tracks the requests of a connected transport (wraps its `onmessage` and `send`), so a
 * gateway whose client closed stdin can answer what it already received before it exits.
 */
export function trackPendingRequests(transport: Transport): PendingRequests {
  const pending = new Set<Id>();
  const waiters: (() => void)[] = [];
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    received?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (!('method' in message) && 'id' in message && message.id != null && pending.delete(message.id)) {
        if (pending.size === 0) for (const waiter of waiters.splice(0)) waiter();
      }
    }
  };
  return {
    get size() {
      return pending.size;
    },
    drain(timeoutMs) {
      if (pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
