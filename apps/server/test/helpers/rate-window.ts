import { RATE_WINDOW_MS } from '../../src/limits/rate-counter.js';

/** Waits out the current rate window when it ends within 5 s, so a burst of calls counts into one window. */
export async function awaitFreshRateWindow(): Promise<void> {
  const left = RATE_WINDOW_MS - (Date.now() % RATE_WINDOW_MS);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
