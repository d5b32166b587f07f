import type { CallMeta } from '@toolplane/core';
import { expect, it } from 'vitest';
import { Accounting } from '../../src/observe/accounting.js';

function meta(callId: string, tool: string): CallMeta {
  return {
    callId,
    tool,
    provider: 'p',
    kind: 'local',
    latencyMs: 2,
    queueWaitMs: 1,
    bytesIn: 3,
    bytesOut: 4,
    cached: false,
    attempts: 1,
  };
}

it('keeps the last records in order through the ring and totals every call', () => {
  const book = new Accounting(3);
  for (let i = 1; i <= 7; i++)
    book.record(meta(`c${i}`, i % 2 ? 'odd' : 'even'), 's', i, i === 6 ? 'DENIED' : undefined);
  expect(book.records().map((record) => [record.callId, record.ok, record.startedAt])).toEqual([
    ['c5', true, 5],
    ['c6', false, 6],
    ['c7', true, 7],
  ]);
  expect(book.records()[1]).toMatchObject({ code: 'DENIED', sessionId: 's' });
  expect(book.totals.get('odd')).toMatchObject({ calls: 4, errors: 0, latencyMs: 8, bytesIn: 12 });
  expect(book.totals.get('even')).toMatchObject({ calls: 3, errors: 1 });
  const none = new Accounting(0);
  none.record(meta('c1', 't'), 's', 1, undefined);
  expect(none.records()).toEqual([]);
  expect(none.totals.get('t')?.calls).toBe(1);
});
