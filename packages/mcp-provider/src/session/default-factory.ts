import { type McpServerConfig, isStdioConfig } from '../config/types.js';
import type { McpProviderOptions } from '../provider-types.js';
import { openRemoteSession } from '../transport/remote.js';
import type { ClientFeatures } from '../client-features/client-features.js';
import type { McpSessionFactory } from './session.js';

/** How a provider opens its sessions unless given a `sessionFactory`: stdio or remote by the config. */
export function defaultSessionFactory(
  server: string,
  config: McpServerConfig,
  options: McpProviderOptions,
  features?: ClientFeatures,
): McpSessionFactory {
  const offered = features ? { features } : {};
  if (isStdioConfig(config)) {
    return async (open) => {
      // Loaded on demand so the root entry never pulls in child_process.
      const { openStdioSession } = await import('../stdio/connect.js');
      return openStdioSession(server, config, {
        ...open,
        ...offered,
        ...(options.runDirectory === undefined ? {} : { runDirectory: options.runDirectory }),
        ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      });
    };
  }
  return (open) => openRemoteSession(server, config, { ...open, ...offered }, options.auth);
}
