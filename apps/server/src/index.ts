// @toolplane/server: everything exported here is public API (of this private app, for its tests and embedders).
export { optionsFromEnv } from './config/env-options.js';
export { SERVER_DEFAULTS, type ServerOptions } from './config/server-options.js';
export { startBanner } from './first-run.js';
export { ROOT_TENANT, type RunningServer, startServer } from './server.js';
export type { ServerSubagentOptions } from './subagents/subagent-options.js';
