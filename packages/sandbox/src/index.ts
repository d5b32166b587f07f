// @toolplane/sandbox: everything exported here is public API.
export { type DockerExecutor, DEFAULT_SANDBOX_KEY, createDockerExecutor } from './docker/docker-executor.js';
export {
  CONTAINER_WORKSPACE,
  DEFAULT_DOCKER_IMAGE,
  type DockerExecutorOptions,
  type DockerHardening,
} from './docker/docker-options.js';
export { type SandboxFailureCode, isSandboxUnavailable, sandboxError, sandboxFailureCode } from './errors.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_SANDBOX_TIMEOUT_MS,
  type SandboxLimits,
} from './limits.js';
export type { NetworkAllowList, NetworkRefusal } from './network/allow-list-options.js';
export { DEFAULT_PROTECTED_PATHS } from './workspace/protected-paths.js';
export { type BwrapExecutor, createBwrapExecutor } from './bwrap/bwrap-executor.js';
export { type BwrapExecutorOptions, DEFAULT_SYSTEM_PATHS } from './bwrap/bwrap-options.js';
export { cgroupsAvailable } from './bwrap/cgroup-limits.js';
export { type HostFallbackOptions, withHostFallback } from './fallback.js';
export { type SandboxConfig, createSandboxExecutor } from './sandbox-config.js';
