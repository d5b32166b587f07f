import type { Executor } from '@toolplane/core';
import type { SandboxSection } from '../config/sandbox-schema.js';

/** What a configured sandbox gives the runtime. */
export interface ConfiguredSandbox {
  readonly kind: 'docker' | 'bwrap';
  readonly executor: Executor;
  /** Removes every container or jail it started; safe to call twice. */
  close(): Promise<void>;
}

/** The sandbox package's options for a `sandbox:` section (the workspace is the built-in tools'). */
export function sandboxOptions(section: SandboxSection, workspace: string) {
  const { limits, network } = section;
  return {
    workspace,
    ...(limits
      ? {
          limits: {
            ...(limits.memory !== undefined ? { memoryBytes: limits.memory } : {}),
            ...(limits.cpus !== undefined ? { cpus: limits.cpus } : {}),
            ...(limits.pids !== undefined ? { pids: limits.pids } : {}),
            ...(limits.tmp !== undefined ? { tmpBytes: limits.tmp } : {}),
          },
        }
      : {}),
    ...(network === undefined || network === 'none'
      ? {}
      : {
          network: {
            allow: network.allow,
            ...(network.ports ? { ports: network.ports } : {}),
            ...(network.allowedRanges ? { allowedRanges: network.allowedRanges } : {}),
          },
        }),
    ...(section.protectedPaths ? { protectedPaths: section.protectedPaths } : {}),
    ...(section.envAllowList ? { envAllowList: section.envAllowList } : {}),
    ...(section.env ? { env: section.env } : {}),
    ...(section.timeoutMs ? { defaultTimeoutMs: section.timeoutMs } : {}),
  };
}

/**
 * The executor of a `sandbox:` section of kind docker or bwrap (kind host needs none: the
 * built-in tools run on the host by themselves). `@toolplane/sandbox` loads only here, so a
 * config without a sandbox never loads it (nor dockerode).
 */
export async function createConfiguredSandbox(
  section: SandboxSection & { readonly kind: 'docker' | 'bwrap' },
  workspace: string,
): Promise<ConfiguredSandbox> {
  const sandbox = await import('@toolplane/sandbox');
  const options = sandboxOptions(section, workspace);
  const jailed =
    section.kind === 'docker'
      ? sandbox.createDockerExecutor({
          ...options,
          ...(section.image ? { image: section.image } : {}),
          ...(section.hardening ? { hardening: section.hardening } : {}),
          ...(section.idleMs ? { idleMs: section.idleMs } : {}),
        })
      : sandbox.createBwrapExecutor({
          ...options,
          ...(section.bwrapPath ? { bwrapPath: section.bwrapPath } : {}),
        });
  let executor: Executor = jailed;
  if (section.fallback === 'host') {
    const { createHostExecutor } = await import('@toolplane/builtin-fs-shell');
    executor = sandbox.withHostFallback(jailed, createHostExecutor());
  }
  let closing: Promise<void> | undefined;
  return {
    kind: section.kind,
    executor,
    close() {
      closing ??= Promise.resolve(executor.close?.());
      return closing;
    },
  };
}
