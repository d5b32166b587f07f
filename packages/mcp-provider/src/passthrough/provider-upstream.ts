import type { ServerConnection } from '../lifecycle/server-connection.js';
import type { McpUpstream, PassthroughNotification } from './types.js';

/**
 * A provider's upstream for a gateway: requests go to the running session (started when none
 * runs); notification listeners follow every session the connection opens.
 */
export function providerUpstream(
  server: string,
  connection: ServerConnection,
  requestTimeoutMs: number,
): McpUpstream {
  const listeners = new Set<(notification: PassthroughNotification) => void>();
  const heard = (notification: PassthroughNotification): void => {
    for (const listener of listeners) listener(notification);
  };
  const attached = new WeakSet<object>();
  const attach = (session: { passthrough?: { onNotification(l: typeof heard): () => void } }): void => {
    if (!session.passthrough || attached.has(session)) return;
    attached.add(session);
    session.passthrough.onNotification(heard);
  };
  connection.onSessionOpened((session) => attach(session));
  return {
    server,
    capabilities: () => connection.session?.passthrough?.capabilities() ?? {},
    async request(method, params, options = {}) {
      const session = connection.session ?? (await connection.start(options.signal));
      attach(session);
      if (!session.passthrough)
        throw new Error(`MCP server "${server}": this session cannot pass ${method} through`);
      return session.passthrough.request(method, params, { timeoutMs: requestTimeoutMs, ...options });
    },
    onNotification(listener) {
      if (connection.session) attach(connection.session);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
