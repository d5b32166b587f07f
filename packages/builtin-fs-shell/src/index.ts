// @toolplane/builtin-fs-shell: everything exported here is public API.
export { DEFAULT_ENV_ALLOW_LIST, buildCommandEnv } from './executor/environment.js';
export { type HostExecutorOptions, createHostExecutor } from './executor/host-executor.js';
export type { GrepEngineOptions } from './grep/options.js';
export {
  BUILTIN_TOOL_NAMES,
  type BuiltinProvider,
  type BuiltinProviderOptions,
  type BuiltinToolName,
  DEFAULT_LIMITS,
  INDEX_AHEAD_MIN_BYTES,
  createBuiltinProvider,
} from './provider.js';
export type { TodoItem, TodoStatus } from './session/todos.js';
export type { ToolLimits } from './tools/deps.js';
export type { WebFetchOptions } from './web/options.js';
export type { Mount } from './workspace/mounts.js';
export { DEFAULT_PROTECTED_PATHS } from './workspace/protected-paths.js';
export {
  type DiskTarget,
  type MountedTarget,
  type ResolvedTarget,
  Workspace,
  type WorkspaceOptions,
} from './workspace/workspace.js';
