import type { McpServerConfig } from '../config/types.js';
import type { McpSessionFactory } from '../session/session.js';
import type { RestartPolicy } from './backoff.js';
import type { McpEventListener } from './events.js';

/** Where a server connection is in its life. */
export type ConnectionState = 'idle' | 'starting' | 'ready' | 'restarting' | 'failed' | 'closed';

/** Options of {@link ServerConnection}. */
export interface ServerConnectionOptions {
  readonly server: string;
  readonly config: McpServerConfig;
  readonly openSession: McpSessionFactory;
  readonly onEvent?: McpEventListener;
  readonly restartPolicy?: RestartPolicy;
}
