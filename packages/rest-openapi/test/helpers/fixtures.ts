import { afterEach } from 'vitest';
import {
  type RestProvider,
  type RestProviderOptions,
  type RestToolConfig,
  createRestProvider,
} from '../../src/index.js';
import { type Handler, type Loopback, echo, startLoopback } from './loopback.js';

/** Registers cleanups run after each test, last first. */
export function useCleanups(): {
  server(handler?: Handler): Promise<Loopback>;
  provider(tools: Record<string, RestToolConfig>, extra?: Partial<RestProviderOptions>): RestProvider;
  defer(cleanup: () => Promise<void> | void): void;
} {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    async server(handler: Handler = echo) {
      const loopback = await startLoopback(handler);
      cleanups.push(() => loopback.close());
      return loopback;
    },
    provider(tools, extra = {}) {
      const created = createRestProvider({ namespace: 'test', tools, env: {}, ...extra });
      cleanups.push(() => created.close());
      return created;
    },
    defer(cleanup) {
      cleanups.push(cleanup);
    },
  };
}

/** `{ type: 'object', properties, required }` */
export function objectSchema(
  properties: Record<string, unknown>,
  required: string[] = [],
): Record<string, unknown> {
  return { type: 'object', properties, required };
}

/** A random fake credential, made at test time. */
export function fakeSecret(prefix: string): string {
  return `${prefix}_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}

/** OAuth2 client-credentials auth for a test tool: client id `id`, the token endpoint at `tokenUrl`. */
export const oauth = (tokenUrl: string, clientSecret = 'secret') => ({
  type: 'oauth2-client-credentials' as const,
  tokenUrl,
  clientId: 'id',
  clientSecret,
});
