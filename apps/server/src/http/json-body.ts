import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { ServerEnv } from './env.js';
import { type BodyLimits, readJsonBody } from './read-json-body.js';

export type { BodyLimits } from './read-json-body.js';

/**
 * Reads the body of POST/PUT/PATCH once, before any route: at most `maxBytes` (413 past it,
 * counted as it streams, so a lying Content-Length does not matter), JSON only (400), at most
 * `maxDepth` levels deep (400). Routes then read the parsed value from the request's cache.
 */
export function jsonBody(limits: BodyLimits): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const { value, raw } = await readJsonBody(
      { header: (name) => c.req.header(name), incoming, stream: () => c.req.raw.body },
      limits,
    );
    c.set('body', value);
    // the route validators read the body from here instead of the consumed stream (hono's
    // `json()` parses the cached text; without it, it would rebuild a web Response to get one)
    c.req.bodyCache.json = Promise.resolve(value);
    // biome-ignore lint/suspicious/noExplicitAny: hono types the cache by value, stores promises
    (c.req.bodyCache as any).text = Promise.resolve(raw.trim().length > 0 ? raw : JSON.stringify(value));
    await next();
  };
}
