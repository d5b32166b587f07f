import type { SandboxLimits } from '../limits.js';
import type { NetworkAllowList } from '../network/allow-list-options.js';

/** Options of {@link createBwrapExecutor}. */
export interface BwrapExecutorOptions {
  /** The host directory bound read-write at `/workspace`; request `cwd`s must be inside it. */
  readonly workspace: string;
  /** The bwrap binary (default `bwrap` on PATH). */
  readonly bwrapPath?: string;
  /**
   * The unprivileged user (`uid:gid`) bwrap is started as when this process is root (default
   * `65534:65534`): bwrap started by root would leave root's capabilities to the command.
   * Ignored when this process is not root (bwrap then runs as this process's user).
   */
  readonly user?: string;
  /**
   * Limits. pids and memory apply through a cgroup per command, which needs root and a
   * writable cgroup file system (`cgroupsAvailable()` tells); `cpus` does not apply here.
   */
  readonly limits?: SandboxLimits;
  /** `'none'` (default: only a loopback interface) or an allow-list reached through a proxy. */
  readonly network?: 'none' | NetworkAllowList;
  /** Host directories bound read-only at the same path (default `/usr` plus the `/bin`, `/lib`... links or dirs, and parts of `/etc`). */
  readonly systemPaths?: readonly string[];
  /** Workspace paths bound read-only (default `DEFAULT_PROTECTED_PATHS`). */
  readonly protectedPaths?: readonly string[];
  /** Names (or `PREFIX*`) of request variables passed in (default none). */
  readonly envAllowList?: readonly string[];
  /** Variables set in every command, on top of PATH, HOME=/tmp and TMPDIR=/tmp. */
  readonly env?: Readonly<Record<string, string>>;
  /** Timeout of a request that sets none (default 300 s). */
  readonly defaultTimeoutMs?: number;
  /** Output kept per stream when a request sets none (default 1 MiB). */
  readonly defaultMaxOutputBytes?: number;
}

/** What is bound read-only from the host by default. */
export const DEFAULT_SYSTEM_PATHS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc/alternatives',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/etc/mime.types',
];
