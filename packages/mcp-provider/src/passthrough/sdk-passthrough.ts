import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { McpPassthrough, PassthroughNotification } from './types.js';
import { PASSTHROUGH_METHODS } from './types.js';

const ANY_RESULT = z.unknown();
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The raw request channel of an SDK 1.x client. Installs the client's fallback notification
 * handler, so call it before connect.
 */
export function sdkPassthrough(client: Client): McpPassthrough {
  const listeners = new Set<(notification: PassthroughNotification) => void>();
  client.fallbackNotificationHandler = async (notification) => {
    const heard = {
      method: notification.method,
      ...(notification.params ? { params: notification.params as Record<string, unknown> } : {}),
    };
    for (const listener of listeners) {
      try {
        listener(heard);
      } catch {
        // a listener must not break the session
      }
    }
  };
  return {
    capabilities: () => (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    request(method, params, options) {
      if (!(PASSTHROUGH_METHODS as readonly string[]).includes(method))
        return Promise.reject(new Error(`${method} is not a method a gateway passes through`));
      return client.request({ method, params } as never, ANY_RESULT as never, {
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
