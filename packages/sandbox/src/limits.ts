/** Resource limits of a sandbox; each is overridable, `undefined` never means "none". */
export interface SandboxLimits {
  /** Most processes and threads at once (default 256): a fork bomb stops here. */
  readonly pids?: number;
  /** Memory, and memory plus swap, in bytes (default 512 MiB): a hog is killed here. */
  readonly memoryBytes?: number;
  /** CPUs the sandbox may use (default 1). */
  readonly cpus?: number;
  /** Size of the tmpfs at `/tmp`, in bytes (default 256 MiB). */
  readonly tmpBytes?: number;
}

/** The limits with every default filled in. */
export interface ResolvedLimits {
  readonly pids: number;
  readonly memoryBytes: number;
  readonly cpus: number;
  readonly tmpBytes: number;
}

/** Default limits of a sandbox. */
export const DEFAULT_LIMITS: ResolvedLimits = {
  pids: 256,
  memoryBytes: 512 * 1024 * 1024,
  cpus: 1,
  tmpBytes: 256 * 1024 * 1024,
};

/** `limits` with the defaults filled in. */
export function resolveLimits(limits: SandboxLimits | undefined): ResolvedLimits {
  return {
    ...DEFAULT_LIMITS,
    ...Object.fromEntries(Object.entries(limits ?? {}).filter(([, v]) => v !== undefined)),
  };
}

/** Default timeout of a sandboxed command when the request sets none (300 s). */
export const DEFAULT_SANDBOX_TIMEOUT_MS = 300_000;

/** Output kept per stream when a request sets no `maxOutputBytes` (1 MiB). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
