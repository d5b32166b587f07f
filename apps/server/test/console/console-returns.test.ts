import { describe, expect, it } from 'vitest';
import { ConsoleReturns } from '../../src/console/console-returns.js';

describe('ConsoleReturns', () => {
  it('answers true once for a state it was given, false for any other', () => {
    const returns = new ConsoleReturns();
    returns.add('state-a');
    expect(returns.take('state-b')).toBe(false);
    expect(returns.take(undefined)).toBe(false);
    expect(returns.take('state-a')).toBe(true);
    expect(returns.take('state-a')).toBe(false);
  });

  it('forgets a state after an hour', () => {
    let now = 0;
    const returns = new ConsoleReturns(() => now);
    returns.add('early');
    returns.add('late');
    now = 60 * 60 * 1000 - 1;
    expect(returns.take('early')).toBe(true);
    now = 60 * 60 * 1000 + 1;
    expect(returns.take('late')).toBe(false);
  });

  it('keeps at most 10 000 states, forgetting the oldest first', () => {
    const returns = new ConsoleReturns(() => 0);
    for (let index = 0; index <= 10_000; index += 1) returns.add(`state-${index}`);
    expect(returns.take('state-0')).toBe(false);
    expect(returns.take('state-1')).toBe(true);
    expect(returns.take('state-10000')).toBe(true);
  });
});
