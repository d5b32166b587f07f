// A loopback HTTP server serving test pages, with a provider whose web_fetch may reach it: the
// set-up and tear-down the web_fetch tests share.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { WebFetchOptions } from '../../src/web/options.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';
import { makeTempDir } from './index.js';

/** The running server's address and the provider, available inside tests. */
export interface PageServer {
  /** The URL of `path` on the server. */
  url(path: string): string;
  readonly provider: BuiltinProvider;
}

/**
 * Starts `handle` on 127.0.0.1 (port 0) and a provider with the private-address guard open
 * before the file's tests, and closes both after them.
 */
export function usePageServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  webFetch: Omit<WebFetchOptions, 'allowPrivate'> = {},
): PageServer {
  let server: Server | undefined;
  let port = 0;
  let provider: BuiltinProvider | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const temp = await makeTempDir('tp-web-pages-');
    cleanup = temp.cleanup;
    server = createServer(handle);
    server.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    provider = createBuiltinProvider({ workspace: temp.dir, webFetch: { ...webFetch, allowPrivate: true } });
  });
  afterAll(async () => {
    await provider?.close?.();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await cleanup?.();
  });
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    get provider() {
      if (!provider) throw new Error('usePageServer: used outside a test');
      return provider;
    },
  };
}
