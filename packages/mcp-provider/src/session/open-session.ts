import { errorMessage } from '@toolplane/core';
import { openSdkSession } from './sdk-session.js';
import type { TransportHandle } from './transport-handle.js';
import type { McpSession, SessionOpenOptions } from './session.js';

type V2Module = typeof import('./sdk-v2-session.js');

/** Loads the v2 session on demand: `@modelcontextprotocol/client` is an optional peer dependency. */
export async function loadV2(): Promise<V2Module> {
  try {
    return await import('./sdk-v2-session.js');
  } catch (error) {
    throw new Error(
      `client "v2" needs the package @modelcontextprotocol/client: install it (${errorMessage(error)})`,
    );
  }
}

/** Opens a session over a transport with the client the server's config picks (`v1` by default). */
export async function openSession(
  handle: TransportHandle,
  client: 'v1' | 'v2' | undefined,
  options: SessionOpenOptions,
): Promise<McpSession> {
  if (client !== 'v2') return openSdkSession(handle, options);
  const { openV2Session } = await loadV2();
  return openV2Session(handle, options);
}
