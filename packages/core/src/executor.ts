/** One command to run. */
export interface ExecRequest {
  /** A shell command line, run by the executor's shell (`sh -c` on the host). */
  readonly command: string;
  /** Working directory; the executor maps it into its own file system when it has one. */
  readonly cwd: string;
  /** The complete environment of the command (nothing is inherited implicitly). */
  readonly env: Readonly<Record<string, string>>;
  /** Kills the whole process tree after this long. */
  readonly timeoutMs?: number;
  /** Aborting kills the whole process tree. */
  readonly signal?: AbortSignal;
  readonly stdin?: string;
  /** Output kept per stream; the executor keeps the head and the tail beyond it. */
  readonly maxOutputBytes?: number;
  /** Called with every chunk as it arrives (for streaming, progress and background tasks). */
  readonly onOutput?: (chunk: { readonly stream: 'stdout' | 'stderr'; readonly data: string }) => void;
  /**
   * Which sandbox the command runs in, usually the session id: commands with the same key share
   * one sandbox (a container and what it keeps in `/tmp`), commands with different keys never
   * see each other. Executors without sandboxes ignore it; a sandboxing executor uses one
   * default sandbox for requests without a key.
   */
  readonly sandboxKey?: string;
}

/** How a command ended. */
export interface ExecResult {
  /** Exit code, or null when killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** True when output beyond `maxOutputBytes` was dropped from the middle. */
  readonly truncated: boolean;
  readonly durationMs: number;
  /**
   * One-line notes from the executor about how the command ran: what its sandbox stopped (a
   * read-only path, a process limit, a refused host) or that it ran without one. An executor
   * that sets them also ends `stderr` with them, so tools that show only the output show them.
   */
  readonly notes?: readonly string[];
}

/** A started command. */
export interface ExecProcess {
  readonly pid: number | undefined;
  /** Settles when the process tree is gone; never rejects for a non-zero exit. */
  readonly done: Promise<ExecResult>;
  /** Kills the whole process tree; resolves when it is gone. */
  kill(): Promise<void>;
}

/**
 * Where commands run: the host, a container, a bubblewrap jail. Shell tools take one from
 * `ToolContext.services.executor`, so the same tool runs anywhere.
 */
export interface Executor {
  /** `host`, `docker`, `bwrap`... */
  readonly kind: string;
  start(request: ExecRequest): ExecProcess;
  /**
   * Frees what the executor keeps for one sandbox key (its container): call it when that
   * session ends. Its running commands are killed. A later request with the key starts afresh.
   */
  release?(sandboxKey: string): Promise<void>;
  close?(): Promise<void>;
}
