/** How long a login begun from the console is remembered; longer than any login waits. */
const REMEMBER_MS = 60 * 60 * 1000;
/** The most logins remembered at once; the oldest is forgotten first. */
const MAX_REMEMBERED = 10_000;

/**
 * The `state`s of logins begun from the console, so the OAuth callback sends that browser back
 * to `/console` instead of answering JSON. A state is taken at most once.
 */
export class ConsoleReturns {
  private readonly byState = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Remembers that the login of `state` began from the console. */
  add(state: string): void {
    const now = this.now();
    for (const [known, expiresAt] of this.byState) {
      if (expiresAt > now && this.byState.size < MAX_REMEMBERED) break;
      this.byState.delete(known);
    }
    this.byState.set(state, now + REMEMBER_MS);
  }

  /** Whether the login of `state` began from the console; forgets it. */
  take(state: string | undefined): boolean {
    if (state === undefined) return false;
    const expiresAt = this.byState.get(state);
    this.byState.delete(state);
    return expiresAt !== undefined && expiresAt > this.now();
  }
}
