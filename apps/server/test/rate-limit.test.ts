import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitFreshRateWindow } from './helpers/rate-window.js';
import {
  ECHO_TOOL,
  type TestServer,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

const LIMIT = 6;

describe.each(storages())('the per-key rate limit on one instance on $kind', ({ kind, skip }) => {
  let t: TestServer;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind, rateLimitPerMinute: LIMIT });
    await putCustomTool(t, 'echo', ECHO_TOOL);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (key: string) =>
    t.api('POST', '/v1/tools/custom__echo/call', { key, body: { arguments: { text: 'r' } } });

  it.skipIf(skip)(
    'admits exactly the limit, in sequence and at once, then answers 429 RATE_LIMITED',
    async () => {
      const sequential = await makeKey(t, t.adminKey, 'admin', 'one-by-one');
      const burst = await makeKey(t, t.adminKey, 'admin', 'all-at-once');
      await awaitFreshRateWindow();
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 3; i += 1) statuses.push((await call(sequential)).status);
      expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429, 429]);
      const together = await Promise.all(Array.from({ length: LIMIT * 2 }, () => call(burst)));
      expect(together.filter((answer) => answer.status === 200)).toHaveLength(LIMIT);
      const refused = together.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(LIMIT);
      expect(refused[0]?.body.result.error.code).toBe('RATE_LIMITED');
      expect(refused[0]?.body.result.error.details.limitPerMinute).toBe(LIMIT);
    },
  );

  it.skipIf(skip)('keeps the counts of a key across a restart on the same database', async () => {
    const key = await makeKey(t, t.adminKey, 'admin', 'restarted');
    await awaitFreshRateWindow();
    for (let i = 0; i < LIMIT - 1; i += 1) expect((await call(key)).status).toBe(200);
    await t.server.close();
    t = await startTestServer({ storage: kind, rateLimitPerMinute: LIMIT, reuse: t });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i += 1) statuses.push((await call(key)).status);
    expect(statuses).toEqual([200, 429]);
  });
});
