import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, RestartTracker } from '../src/lifecycle/backoff.js';

describe('RestartTracker', () => {
  it('walks the backoff 0, 1, 2, 5, 10 s and gives up on the sixth close within a minute', () => {
    let now = 0;
    const tracker = new RestartTracker(DEFAULT_RESTART_POLICY, () => now);
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      tracker.started();
      now += 1000;
      delays.push(tracker.crashed()?.delayMs as number);
    }
    expect(delays).toEqual([0, 1000, 2000, 5000, 10_000]);
    tracker.started();
    now += 1000;
    expect(tracker.crashed()).toBeUndefined();
  });

  it('keeps the last delay once past the end, when crashes are spread out', () => {
    let now = 0;
    const tracker = new RestartTracker(DEFAULT_RESTART_POLICY, () => now);
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      tracker.started();
      now += 30_000; // two per minute: never five within 60 s
      delays.push(tracker.crashed()?.delayMs as number);
    }
    expect(delays).toEqual([0, 1000, 2000, 5000, 10_000, 30_000, 60_000, 60_000, 60_000]);
  });

  it('starts the backoff again after ten healthy minutes', () => {
    let now = 0;
    const tracker = new RestartTracker(DEFAULT_RESTART_POLICY, () => now);
    for (let i = 0; i < 3; i++) {
      tracker.started();
      now += 1000;
      tracker.crashed();
    }
    tracker.started();
    now += 600_000;
    expect(tracker.crashed()).toEqual({ delayMs: 0, attempt: 1 });
  });

  it('gives up on the eleventh crash in a row when each comes after more than the window', () => {
    let now = 0;
    const tracker = new RestartTracker(DEFAULT_RESTART_POLICY, () => now);
    const outcomes: (number | undefined)[] = [];
    for (let i = 0; i < 11; i++) {
      tracker.started();
      now += 70_000; // up 70 s each time: never two crashes within 60 s
      outcomes.push(tracker.crashed()?.delayMs);
    }
    expect(outcomes.slice(0, 10)).toEqual([
      0, 1000, 2000, 5000, 10_000, 30_000, 60_000, 60_000, 60_000, 60_000,
    ]);
    expect(outcomes[10]).toBeUndefined();
    expect(tracker.givenUpBecause()).toBe(
      'it crashed 11 times in a row, none up for healthyResetMs (600000 ms)',
    );
  });
});
