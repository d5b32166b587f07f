import type { Executor } from '@toolplane/core';
import { createBwrapExecutor } from './bwrap/bwrap-executor.js';
import { createDockerExecutor } from './docker/docker-executor.js';
import type { DockerHardening } from './docker/docker-options.js';
import { sandboxError } from './errors.js';
import { withHostFallback } from './fallback.js';
import type { SandboxLimits } from './limits.js';
import type { NetworkAllowList } from './network/allow-list-options.js';

/** A sandbox as an operator configures it (the CLI's `sandbox:` section). */
export interface SandboxConfig {
  /** Where commands run. */
  readonly kind: 'docker' | 'bwrap' | 'host';
  /** The directory commands work in, mounted at `/workspace`. */
  readonly workspace: string;
  /** The Docker image (docker only). */
  readonly image?: string;
  readonly limits?: SandboxLimits;
  /** Docker hardening overrides (docker only). */
  readonly hardening?: DockerHardening;
  readonly network?: 'none' | NetworkAllowList;
  readonly protectedPaths?: readonly string[];
  readonly envAllowList?: readonly string[];
  readonly defaultTimeoutMs?: number;
  /** When the sandbox cannot run: `'fail'` (default) fails the command; `'host'` runs it on the host, saying so. */
  readonly fallback?: 'fail' | 'host';
}

/**
 * The executor a {@link SandboxConfig} describes. `host` (the kind, or the fallback) needs the
 * host executor, which lives with the shell tools (`createHostExecutor` from
 * `@toolplane/builtin-fs-shell`): pass it as `host`.
 *
 * @example
 * const executor = createSandboxExecutor({ kind: 'docker', workspace: '/srv/p', fallback: 'host' }, createHostExecutor());
 */
export function createSandboxExecutor(config: SandboxConfig, host?: Executor): Executor {
  const needHost = config.kind === 'host' || config.fallback === 'host';
  if (needHost && host === undefined) {
    throw sandboxError(
      'SANDBOX_START_FAILED',
      `sandbox kind "${config.kind}" with fallback "${config.fallback ?? 'fail'}" needs a host executor; pass createHostExecutor()`,
    );
  }
  if (config.kind === 'host') return host as Executor;
  const shared = {
    workspace: config.workspace,
    ...(config.limits ? { limits: config.limits } : {}),
    ...(config.network ? { network: config.network } : {}),
    ...(config.protectedPaths ? { protectedPaths: config.protectedPaths } : {}),
    ...(config.envAllowList ? { envAllowList: config.envAllowList } : {}),
    ...(config.defaultTimeoutMs ? { defaultTimeoutMs: config.defaultTimeoutMs } : {}),
  };
  const sandbox =
    config.kind === 'docker'
      ? createDockerExecutor({
          ...shared,
          ...(config.image ? { image: config.image } : {}),
          ...(config.hardening ? { hardening: config.hardening } : {}),
        })
      : createBwrapExecutor(shared);
  return config.fallback === 'host' ? withHostFallback(sandbox, host as Executor) : sandbox;
}
