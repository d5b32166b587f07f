import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PROTOCOL_ERRORS_ONE_BY_ONE,
  PROTOCOL_ERROR_SUMMARY_MS,
  ProtocolErrorReports,
} from './protocol-errors.js';

describe('ProtocolErrorReports', () => {
  // the clock is the thing under test here: it is moved by hand, never waited for
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a burst one by one up to the limit, then counts per interval, then starts over after a quiet interval', () => {
    const reports: Array<[string, number | undefined]> = [];
    const errors = new ProtocolErrorReports((message, count) => reports.push([message, count]));
    for (let i = 0; i < 25; i++) errors.add(`junk ${i}`);
    expect(reports).toHaveLength(PROTOCOL_ERRORS_ONE_BY_ONE);
    expect(reports[0]).toEqual(['junk 0', undefined]);
    vi.advanceTimersByTime(PROTOCOL_ERROR_SUMMARY_MS);
    expect(reports.at(-1)).toEqual(['15 more protocol errors, not reported one by one (last: junk 24)', 15]);
    // still in the burst: counted, reported at the next interval
    errors.add('junk 25');
    expect(reports).toHaveLength(11);
    vi.advanceTimersByTime(PROTOCOL_ERROR_SUMMARY_MS);
    expect(reports.at(-1)?.[1]).toBe(1);
    // a whole quiet interval ends the burst: the next error is reported on its own again
    vi.advanceTimersByTime(PROTOCOL_ERROR_SUMMARY_MS * 3);
    expect(reports).toHaveLength(12);
    errors.add('after the quiet');
    expect(reports.at(-1)).toEqual(['after the quiet', undefined]);
    expect(vi.getTimerCount()).toBe(1);
    errors.flush();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('flush reports what is held back at once, and quotes at most 300 characters of it', () => {
    const reports: Array<[string, number | undefined]> = [];
    const errors = new ProtocolErrorReports((message, count) => reports.push([message, count]));
    for (let i = 0; i < PROTOCOL_ERRORS_ONE_BY_ONE + 2; i++) errors.add('x'.repeat(10_000));
    errors.flush();
    expect(reports).toHaveLength(PROTOCOL_ERRORS_ONE_BY_ONE + 1);
    const [message, count] = reports.at(-1) ?? ['', 0];
    expect(count).toBe(2);
    expect(message.length).toBeLessThan(400);
    errors.flush(); // nothing more held: nothing reported
    expect(reports).toHaveLength(PROTOCOL_ERRORS_ONE_BY_ONE + 1);
  });
});
