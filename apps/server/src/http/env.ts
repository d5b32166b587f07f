import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ServerPrincipal } from '../auth/principal.js';

/** What the middleware puts on every request's context. */
export interface ServerEnv {
  Variables: {
    principal: ServerPrincipal;
    body: unknown;
  };
}

/** The app every route group registers on. */
export type ServerApp = OpenAPIHono<ServerEnv>;
