import { OpenAPIHono } from '@hono/zod-openapi';
import type { Scrubber } from '@toolplane/scrubber';
import { adminOnly, authenticate } from '../auth/auth-middleware.js';
import { registerConsoleRoutes } from '../console/console-routes.js';
import { type LogSink, requestLog } from '../observe/request-log.js';
import { registerAccessRequestRoutes } from '../routes/access-request-routes.js';
import { registerAccountingRoutes } from '../routes/accounting-routes.js';
import { registerApprovalRoutes } from '../routes/approval-routes.js';
import { registerCustomToolRoutes } from '../routes/custom-tool-routes.js';
import type { RouteDeps } from '../routes/deps.js';
import { registerGrantRoutes } from '../routes/grant-routes.js';
import { registerKeyRoutes } from '../routes/key-routes.js';
import { registerMcpRoute } from '../routes/mcp-route.js';
import { registerMcpServerRoutes } from '../routes/mcp-server-routes.js';
import {
  OAUTH_CALLBACK_PATH,
  USER_MCP_SERVER_PATH,
  registerMcpOAuthRoutes,
} from '../routes/mcp-oauth-routes.js';
import { registerOAuthLinksRoute } from '../routes/oauth-links-route.js';
import { registerRestProviderRoutes } from '../routes/rest-provider-routes.js';
import { registerSystemRoutes } from '../routes/system-routes.js';
import { registerTaskRoutes } from '../routes/task-routes.js';
import { registerToolRoutes } from '../routes/tools-routes.js';
import type { ServerApp, ServerEnv } from './env.js';
import { answerError } from './error-answer.js';
import { schemaError } from './schema-error.js';
import { type BodyLimits, jsonBody } from './json-body.js';
import { notFoundHandler } from './not-found.js';

const ADMIN_PATHS = [
  '/v1/keys',
  '/v1/tenants',
  '/v1/custom-tools',
  '/v1/mcp-servers',
  '/v1/grants',
  '/v1/accounting',
  '/v1/rest-providers',
  '/v1/approvals',
  '/metrics',
];

/** Builds the HTTP app: logging, auth, body limits, every route, the OpenAPI document, errors. */
export function createApp(
  deps: RouteDeps & { scrubber: Scrubber; log: LogSink; limits: BodyLimits },
): ServerApp {
  const app: ServerApp = new OpenAPIHono<ServerEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      return c.json(schemaError(result.error.issues).toJSON(), 400);
    },
  });
  app.use('*', requestLog(deps));
  const auth = authenticate(deps.db, deps.principals);
  // the browser comes back to the OAuth callback without a key: its single-use state binds it
  app.use('/v1/*', (c, next) => (c.req.path === OAUTH_CALLBACK_PATH ? next() : auth(c, next)));
  for (const path of ['/mcp', '/metrics']) app.use(path, auth);
  app.use('*', jsonBody(deps.limits));
  for (const path of ADMIN_PATHS) {
    app.use(path, adminOnly);
    // users link their own accounts under /v1/mcp-servers/{name}/oauth
    app.use(`${path}/*`, (c, next) => (USER_MCP_SERVER_PATH.test(c.req.path) ? next() : adminOnly(c, next)));
  }
  registerSystemRoutes(app, deps);
  registerToolRoutes(app, deps);
  registerAccountingRoutes(app, deps);
  registerKeyRoutes(app, deps);
  registerGrantRoutes(app, deps);
  registerAccessRequestRoutes(app, deps, adminOnly);
  registerCustomToolRoutes(app, deps);
  registerMcpServerRoutes(app, deps);
  registerMcpOAuthRoutes(app, deps);
  registerOAuthLinksRoute(app, deps);
  registerRestProviderRoutes(app, deps);
  registerApprovalRoutes(app, deps);
  registerTaskRoutes(app, deps);
  registerMcpRoute(app, deps);
  registerConsoleRoutes(app);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: `Authorization: Bearer tpk_...`',
  });
  app.doc('/openapi.json', {
    openapi: '3.0.3',
    info: {
      title: 'toolplane server',
      version: '0.1.0',
      description: 'Tools for many agents and users: list, call, grant, define.',
    },
  });
  app.notFound(notFoundHandler(() => app.routes));
  app.onError((error, c) => {
    const answer = answerError(error, deps.log, deps.scrubber);
    for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
    return c.json(answer.body, answer.status as 400);
  });
  return app;
}
