import { expect, it } from 'vitest';
import { DeadlineTimer, type TimerHost } from '../../src/call/deadline-timer.js';

/** A clock the test moves by hand, with the one timer the DeadlineTimer arms. */
function manualClock(): TimerHost & { advance(ms: number): void; armed(): number | undefined } {
  let now = 0;
  let timer: { at: number; callback: () => void } | undefined;
  return {
    now: () => now,
    setTimeout: (callback, ms) => {
      timer = { at: now + ms, callback };
      return timer;
    },
    clearTimeout: (handle) => {
      if (timer === handle) timer = undefined;
    },
    advance(ms) {
      now += ms;
      // bounded: each firing consumes the armed timer
      for (let i = 0; i < 100 && timer && timer.at <= now; i++) {
        const { callback } = timer;
        timer = undefined;
        callback();
      }
    },
    armed: () => timer?.at,
  };
}

it('expires due entries in any order of adds and removes, and re-arms for the next', () => {
  const clock = manualClock();
  const timer = new DeadlineTimer(clock);
  const expired: string[] = [];
  const entries = ['a', 'b', 'c', 'd', 'e'].map((name, i) =>
    timer.add(100 * (5 - i), () => expired.push(name)),
  );
  expect(clock.armed()).toBe(100);
  timer.remove(entries[1] as never); // b at 400
  timer.remove(entries[4] as never); // e at 100: the armed one
  timer.remove(entries[4] as never); // twice is harmless
  expect(timer.size).toBe(3);
  clock.advance(150);
  expect(expired).toEqual([]); // e was removed: nothing due at 100
  clock.advance(150); // now 300: d (200) and c (300)
  expect(expired.sort()).toEqual(['c', 'd']);
  expect(timer.size).toBe(1);
  clock.advance(200); // now 500: a
  expect(expired).toContain('a');
  expect(timer.size).toBe(0);
  expect(clock.armed()).toBeUndefined();
});

it('survives many add/remove cycles with long-lived entries in between', () => {
  const clock = manualClock();
  const timer = new DeadlineTimer(clock);
  const expired: number[] = [];
  const long = Array.from({ length: 10 }, (_, i) => timer.add(10_000 + i, () => expired.push(i)));
  for (let i = 0; i < 1000; i++) timer.remove(timer.add(50, () => expired.push(-1)));
  expect(timer.size).toBe(10);
  timer.remove(long[3] as never);
  clock.advance(20_000);
  expect(expired.sort((x, y) => x - y)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
  timer.clear();
  expect(timer.size).toBe(0);
});
