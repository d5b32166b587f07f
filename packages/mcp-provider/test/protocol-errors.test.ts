// How a session's protocol errors reach the listener: coalesced (the first of a burst one by
// one, the rest counted), each cut to a bounded length, so a server printing junk cannot flood
// it. ProtocolErrorReports on its own with a hand-moved clock, then through real servers.
import { createToolContext } from '@toolplane/core';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PROTOCOL_ERRORS_ONE_BY_ONE,
  PROTOCOL_ERROR_SUMMARY_MS,
  ProtocolErrorReports,
} from '../src/lifecycle/protocol-errors.js';
import { createMcpProvider } from '../src/index.js';
import { eventLog, hostileServer, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

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

describe('a stdio server that prints junk lines', () => {
  const cases = [
    ['v1', 'after initialize'],
    ['v2', 'after initialize'],
    ['v1', 'before the initialize answer'],
    ['v2', 'before the initialize answer'],
  ] as const;
  for (const [client, when] of cases) {
    it(`client ${client}: a flood of junk ${when} is a few protocol-error events that count every line`, async () => {
      const junk = 3000;
      const log = eventLog();
      const provider = createMcpProvider(
        'junk',
        hostileServer([`--${when === 'after initialize' ? 'junk' : 'junk-first'}=${junk}`], { client }),
        { runDirectory: run.path, onEvent: log.onEvent },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        // answered after the junk (one stdout, in order): every junk line has been read by now
        const echoed = await provider.execute('echo', {}, createToolContext());
        expect(echoed.ok).toBe(true);
      } finally {
        await provider.close?.(); // reports what is still being counted
      }
      const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event] : []));
      const one = reports.filter((event) => event.count === undefined);
      const summaries = reports.filter((event) => event.count !== undefined);
      expect(one.length).toBeGreaterThan(0);
      expect(one.length).toBeLessThanOrEqual(10);
      expect(one[0]?.message).toContain('junk 0');
      expect(summaries.length).toBeGreaterThan(0);
      // every line is accounted for, none twice
      expect(one.length + summaries.reduce((sum, event) => sum + (event.count ?? 0), 0)).toBe(junk);
      expect(summaries.at(-1)?.message).toMatch(/more protocol errors.*last: .*junk 2999/);
      expect(reports.length).toBeLessThan(100);
    });
  }
});

describe('a tools/list full of bad definitions', () => {
  it('is a few protocol-error events that count every definition left out', async () => {
    const bad = 2000;
    const log = eventLog();
    const provider = createMcpProvider('badmany', hostileServer([`--bad-many=${bad}`]), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).map((spec) => spec.name)).toEqual(['echo', 'lists', 'storm']);
      await provider.refreshTools(AbortSignal.timeout(30_000)); // a second listing, reported again
    } finally {
      await provider.close?.();
    }
    const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event] : []));
    expect(reports.length).toBeLessThan(50);
    expect(reports[0]?.message).toContain('"bad_0"');
    expect(reports.reduce((sum, event) => sum + (event.count ?? 1), 0)).toBe(2 * bad);
  });
});

describe('one huge message that no schema accepts', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: is reported without quoting all of it`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('hugejunk', hostileServer(['--huge-junk=5000000'], { client }), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect((await provider.execute('echo', {}, createToolContext())).ok).toBe(true);
      } finally {
        await provider.close?.();
      }
      const reports = log.events.flatMap((event) => (event.type === 'protocol-error' ? [event.message] : []));
      expect(reports.length).toBeGreaterThan(0);
      for (const message of reports) expect(message.length).toBeLessThan(2_000);
    });
  }
});
