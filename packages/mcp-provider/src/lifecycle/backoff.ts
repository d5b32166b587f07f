/** Delays before restart attempts 1, 2, 3...; the last repeats. */
export const RESTART_BACKOFF_MS: readonly number[] = [0, 1000, 2000, 5000, 10_000, 30_000, 60_000];

const DEFAULT_CONSECUTIVE_RESTARTS = 10;

/** Crash policy of a server. */
export interface RestartPolicy {
  readonly backoffMs: readonly number[];
  /** This many unexpected exits within `crashWindowMs` marks the server failed. */
  readonly maxRestarts: number;
  readonly crashWindowMs: number;
  /** After this long up without a crash, the backoff starts again from the first delay. */
  readonly healthyResetMs: number;
  /**
   * This many restarts in a row, none followed by `healthyResetMs` up, and the next crash marks
   * the server failed: a server that crashes each time after a while (longer than the window
   * holds) is a crash loop too. Default 10.
   */
  readonly maxConsecutiveRestarts?: number;
}

/**
 * Defaults: backoff 0, 1, 2, 5, 10, 30, 60 s; 5 restarts in 60 s fail, and so do 10 in a row
 * without 10 healthy minutes between them; reset after 10 healthy minutes.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  backoffMs: RESTART_BACKOFF_MS,
  maxRestarts: 5,
  crashWindowMs: 60_000,
  healthyResetMs: 600_000,
  maxConsecutiveRestarts: DEFAULT_CONSECUTIVE_RESTARTS,
};

/** Why a server was given up. */
export type GiveUpReason = 'window' | 'consecutive';

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

  /** Why the last `crashed()` gave the server up. */
  gaveUp: GiveUpReason = 'window';

  /**
   * The server went down unexpectedly: the delay before the next attempt, or undefined when it
   * crashed too often and must be marked failed (`gaveUp` says by which rule).
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
    if (this.crashes.length > this.policy.maxRestarts) {
      this.gaveUp = 'window';
      return undefined;
    }
    const consecutive = this.policy.maxConsecutiveRestarts ?? DEFAULT_CONSECUTIVE_RESTARTS;
    if (this.attempt >= consecutive) {
      this.gaveUp = 'consecutive';
      return undefined;
    }
    const delayMs = this.policy.backoffMs[Math.min(this.attempt, this.policy.backoffMs.length - 1)] ?? 0;
    this.attempt++;
    return { delayMs, attempt: this.attempt };
  }

  /** Why the last `crashed()` gave the server up, in words. */
  givenUpBecause(): string {
    const policy = this.policy;
    if (this.gaveUp === 'window') {
      return `it crashed ${policy.maxRestarts + 1} times within ${policy.crashWindowMs} ms`;
    }
    return `it crashed ${this.attempt + 1} times in a row, none up for healthyResetMs (${policy.healthyResetMs} ms)`;
  }

  /** Forgets every crash (an operator's restart of a server fixed meanwhile). */
  reset(): void {
    this.attempt = 0;
    this.crashes = [];
    this.upSince = undefined;
  }

  /** Restarts so far in the current run of crashes. */
  get restarts(): number {
    return this.attempt;
  }
}
