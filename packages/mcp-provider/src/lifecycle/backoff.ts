/** Delays before restart attempts 1, 2, 3...; the last repeats. */
export const RESTART_BACKOFF_MS: readonly number[] = [0, 1000, 2000, 5000, 10_000, 30_000, 60_000];

/** Crash policy of a server. */
export interface RestartPolicy {
  readonly backoffMs: readonly number[];
  /** This many unexpected exits within `crashWindowMs` marks the server failed. */
  readonly maxRestarts: number;
  readonly crashWindowMs: number;
  /** After this long up without a crash, the backoff starts again from the first delay. */
  readonly healthyResetMs: number;
}

/** Defaults: backoff 0, 1, 2, 5, 10, 30, 60 s; 5 restarts in 60 s fail; reset after 10 healthy minutes. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  backoffMs: RESTART_BACKOFF_MS,
  maxRestarts: 5,
  crashWindowMs: 60_000,
  healthyResetMs: 600_000,
};

/** Tracks crashes and picks the next delay. */
export class RestartTracker {
  private attempt = 0;
  private crashes: number[] = [];
  private upSince: number | undefined;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** The server came up. */
  started(): void {
    this.upSince = this.now();
  }

  /**
   * The server went down unexpectedly: the delay before the next attempt, or undefined when it
   * crashed too often and must be marked failed.
   */
  crashed(): { delayMs: number; attempt: number } | undefined {
    const now = this.now();
    if (this.upSince !== undefined && now - this.upSince >= this.policy.healthyResetMs) {
      this.attempt = 0;
      this.crashes = [];
    }
    this.upSince = undefined;
    this.crashes = this.crashes.filter((at) => now - at < this.policy.crashWindowMs);
    this.crashes.push(now);
    if (this.crashes.length > this.policy.maxRestarts) return undefined;
    const delayMs = this.policy.backoffMs[Math.min(this.attempt, this.policy.backoffMs.length - 1)] ?? 0;
    this.attempt++;
    return { delayMs, attempt: this.attempt };
  }

  /** Restarts so far in the current run of crashes. */
  get restarts(): number {
    return this.attempt;
  }
}
