import { stableStringify } from '@toolplane/core';
import type { McpServerConfig } from '../config/types.js';
import type { McpEventListener } from './events.js';
import type { ServerConnectionOptions } from './connection-types.js';
import { ServerConnection } from './server-connection.js';
import { type SharedSettings, checkSharedSettings } from './shared-settings.js';

/** A provider's hold on a shared connection. */
export interface SharedLease {
  readonly connection: ServerConnection;
  /** Drops this hold; the last one closes the server. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Reference-counted server connections shared across sessions: every provider created with
 * the same registry, server name and config (and `shared: true`) uses one server process.
 */
export interface McpSharedRegistry {
  /**
   * A hold on the server's connection, made on first use. Throws `CONFIG_INVALID` when the
   * connection runs under other `settings` (a restart policy, kill grace or run directory).
   */
  acquire(options: ServerConnectionOptions, settings?: SharedSettings): SharedLease;
  /** Number of live shared connections. */
  readonly size: number;
  /** References held on a server's connection (0 when none). */
  references(server: string, config: McpServerConfig): number;
  /** Closes every connection regardless of references (application shutdown). */
  closeAll(): Promise<void>;
}

/**
 * A registry for shared servers.
 *
 * @example
 * const registry = createSharedRegistry();
 * const a = createMcpProvider('github', config, { registry }); // one process...
 * const b = createMcpProvider('github', config, { registry }); // ...for both
 */
export function createSharedRegistry(): McpSharedRegistry {
  const entries = new Map<
    string,
    {
      connection: ServerConnection;
      count: number;
      settings: SharedSettings;
      /**
       * The event listeners of the providers holding it, each with how many of them gave it: each
       * listener hears every event of the server once.
       */
      listeners: Map<McpEventListener, number>;
    }
  >();
  const keyOf = (server: string, config: McpServerConfig): string =>
    `${server}\u0000${stableStringify(config)}`;
  return {
    acquire(options, settings = {}) {
      const key = keyOf(options.server, options.config);
      let entry = entries.get(key);
      if (!entry || entry.connection.state === 'closed') {
        const listeners = new Map<McpEventListener, number>();
        const onEvent: McpEventListener = (event) => {
          for (const listener of [...listeners.keys()]) {
            try {
              listener(event);
            } catch {
              // one listener's failure must not keep the event from the others
            }
          }
        };
        entry = { connection: new ServerConnection({ ...options, onEvent }), count: 0, settings, listeners };
        entries.set(key, entry);
      } else {
        checkSharedSettings(options.server, entry.settings, settings);
      }
      entry.count++;
      const held = entry;
      const listener = options.onEvent;
      if (listener) held.listeners.set(listener, (held.listeners.get(listener) ?? 0) + 1);
      const stopListening = (): void => {
        if (!listener) return;
        const count = (held.listeners.get(listener) ?? 1) - 1;
        if (count > 0) held.listeners.set(listener, count);
        else held.listeners.delete(listener);
      };
      let released = false;
      return {
        connection: held.connection,
        async release() {
          if (released) return;
          released = true;
          held.count--;
          if (held.count > 0) {
            stopListening();
            return;
          }
          if (entries.get(key) === held) entries.delete(key);
          // the last holder hears its server stop, as a provider of its own does
          await held.connection.close();
          stopListening();
        },
      };
    },
    get size() {
      return entries.size;
    },
    references(server, config) {
      return entries.get(keyOf(server, config))?.count ?? 0;
    },
    async closeAll() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((entry) => entry.connection.close()));
    },
  };
}
