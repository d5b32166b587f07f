import type Docker from 'dockerode';
import type { SandboxLimits } from '../limits.js';
import type { NetworkAllowList } from '../network/allow-list-options.js';

/** The image the package's tests build offline (`bash tooling/ci/sandbox-engines.sh`). */
export const DEFAULT_DOCKER_IMAGE = 'toolplane-sandbox:busybox';

/** Where the workspace is mounted in a container, and the default working directory. */
export const CONTAINER_WORKSPACE = '/workspace';

/**
 * How hardened a container is. Every field defaults to the hardened value; loosening one is a
 * decision the operator makes by writing it down.
 */
export interface DockerHardening {
  /** Mount the image's root file system read-only (default true); `/tmp` is a tmpfs. */
  readonly readOnlyRoot?: boolean;
  /** Linux capabilities to keep (default none: `--cap-drop ALL`). */
  readonly capabilities?: readonly string[];
  /** Set `no-new-privileges` (default true): setuid binaries do not raise privileges. */
  readonly noNewPrivileges?: boolean;
  /** The user commands run as, `uid[:gid]` (default `65534:65534`, nobody). */
  readonly user?: string;
}

/** Options of {@link createDockerExecutor}. */
export interface DockerExecutorOptions {
  /** The host directory mounted read-write at `/workspace`; request `cwd`s must be inside it. */
  readonly workspace: string;
  /** The image (default {@link DEFAULT_DOCKER_IMAGE}); it must have `/bin/sh`. */
  readonly image?: string;
  /** A dockerode client (default: one for `DOCKER_HOST`, else `/var/run/docker.sock`). */
  readonly docker?: Docker;
  /** Resource limits (pids 256, memory = memory+swap 512 MiB, 1 CPU, /tmp 256 MiB). */
  readonly limits?: SandboxLimits;
  /** Hardening; every setting defaults to the hardened one. */
  readonly hardening?: DockerHardening;
  /**
   * The network: `'none'` (default), or an allow-list of host names reached through a proxy on
   * the host that is the container's only way out.
   */
  readonly network?: 'none' | NetworkAllowList;
  /** Workspace paths mounted read-only (default {@link DEFAULT_PROTECTED_PATHS}). */
  readonly protectedPaths?: readonly string[];
  /** Names (or `PREFIX*`) of request variables passed in (default none). */
  readonly envAllowList?: readonly string[];
  /** Variables set in every command (PATH, HOME=/tmp, TMPDIR=/tmp by default; these add to them). */
  readonly env?: Readonly<Record<string, string>>;
  /** Timeout of a request that sets none (default 300 s). */
  readonly defaultTimeoutMs?: number;
  /** Output kept per stream when a request sets none (default 1 MiB). */
  readonly defaultMaxOutputBytes?: number;
  /** A container unused this long is removed; the next command of its key makes a new one (default 15 min). */
  readonly idleMs?: number;
  /** After a command's shell exits, how long its output may stay open (held by a background process) (default 250 ms). */
  readonly drainMs?: number;
  /** Remove containers whose creating process is gone when the executor starts (default true). */
  readonly removeLeftovers?: boolean;
}
