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
  const settled = (id: unknown): void => {
    if ((typeof id === 'string' || typeof id === 'number') && pending.delete(id) && pending.size === 0)
      for (const waiter of waiters.splice(0)) waiter();
  };
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    // a request the client cancelled gets no answer (the SDK server drops it, as MCP says): it
    // is no longer pending, or it would stay for the session's life and hold up drain()
    else if ('method' in message && message.method === 'notifications/cancelled')
      settled((message.params as { requestId?: unknown } | undefined)?.requestId);
    received?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (!('method' in message) && 'id' in message) settled(message.id);
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
