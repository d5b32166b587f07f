/** Characters of a client error message kept (the SDKs quote a whole refused message in it). */
const MESSAGE_CHARS = 1_000;

/** A client error message cut to {@link MESSAGE_CHARS}, saying how long it was. */
export function clipErrorMessage(message: string): string {
  return message.length > MESSAGE_CHARS
    ? `${message.slice(0, MESSAGE_CHARS)}... (${message.length} characters)`
    : message;
}

/** Messages kept whole for a listener that has not come yet; the rest are only counted. */
const KEPT_EARLY = 20;

/**
 * Passes a client's protocol errors to the session's listeners. Errors seen before anyone
 * listens (while initializing, or before the provider adopts the session) are replayed to the
 * first listener: the first {@link KEPT_EARLY} as they were, every later one as the last of
 * them (counted, never dropped; the listener coalesces them anyway).
 */
export class ErrorRelay {
  private readonly listeners: Array<(message: string) => void> = [];
  private early: string[] = [];
  private earlyMore = 0;
  private earlyLast = '';

  /** One protocol error. */
  emit(message: string): void {
    if (this.listeners.length === 0) {
      if (this.early.length < KEPT_EARLY) this.early.push(message);
      else {
        this.earlyMore++;
        this.earlyLast = message;
      }
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  /** Adds a listener; the first one hears what came before it. */
  listen(listener: (message: string) => void): void {
    this.listeners.push(listener);
    this.replayEarly(listener);
  }

  /**
   * Hands what came before any listener to `listener`, once, without listening on: the start
   * failed, and no one will listen to this session.
   */
  drainEarly(listener: (message: string) => void): void {
    if (this.listeners.length === 0) this.replayEarly(listener);
  }

  private replayEarly(listener: (message: string) => void): void {
    const early = this.early;
    const more = this.earlyMore;
    this.early = [];
    this.earlyMore = 0;
    for (const message of early) listener(message);
    for (let i = 0; i < more; i++) listener(this.earlyLast);
  }
}
