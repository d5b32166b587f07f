// @toolplane/cli: everything exported here is public API.
export { CONFIG_FILE_NAMES } from './config/find-file.js';
export type { ConfigIssue } from './config/issue.js';
export { type LoadedConfig, loadConfig, readConfig } from './config/load.js';
export { type ToolplaneConfig, configSchema } from './config/schema.js';
export type { CommandContext } from './context.js';
export { CliError, EXIT_CODES } from './output/cli-error.js';
export { createProgram, runCli } from './program.js';
