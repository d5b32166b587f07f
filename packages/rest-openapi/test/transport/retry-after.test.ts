import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_SECONDS } from '../../src/index.js';
import { failure, getTool } from '../helpers/bad-input.js';
import { objectSchema, oauth, useCleanups } from '../helpers/fixtures.js';
import { sendJson } from '../helpers/loopback.js';

const { server, provider } = useCleanups();

/** Retry-After values a server may send, and the retryAfterSeconds the failure should carry. */
const CASES: [string, number | undefined][] = [
  ['7', 7],
  ['0', 0],
  ['2030', 2030],
  ['999999999', MAX_RETRY_AFTER_SECONDS],
  ['99999999999999999999999999', MAX_RETRY_AFTER_SECONDS],
  ['Fri, 31 Dec 9999 23:59:59 GMT', MAX_RETRY_AFTER_SECONDS],
  ['Sunday, 06-Nov-94 08:49:37 GMT', 0],
  ['Sun Nov  6 08:49:37 1994', 0],
  // not a delay-seconds nor an HTTP date (RFC 9110 10.2.3): dropped, not read as some date
  ['-5', undefined],
  ['1.5', undefined],
  ['1e3', undefined],
  ['banana 2099', undefined],
  ['soon', undefined],
  ['', undefined],
];

describe('Retry-After', () => {
  it('caps retryAfterSeconds at MAX_RETRY_AFTER_SECONDS and drops what is no delay or HTTP date', async () => {
    const api = await server((request, response) => {
      const index = Number(request.url.split('/').pop());
      sendJson(response, 429, { error: 'busy' }, { 'retry-after': CASES[index]?.[0] ?? '' });
    });
    const rest = provider({
      r: getTool(`${api.origin}/r/{i}`, {
        parametersSchema: objectSchema({ i: { type: 'integer' } }, ['i']),
      }),
    });
    expect(MAX_RETRY_AFTER_SECONDS).toBe(3600);
    for (const [index, [header, expected]] of CASES.entries()) {
      const result = failure(await rest.execute('r', { i: index }, createToolContext()));
      expect(result.error.code, header).toBe('RATE_LIMITED');
      // a hostile server cannot pass 999999999 (31 years), nor `banana 2099` as a date
      expect(result.error.details?.retryAfterSeconds, header).toBe(expected);
    }
  });

  it('reports the capped wait before a rate-limited token endpoint is asked again', async () => {
    const tokens = await server((_request, response) =>
      sendJson(response, 429, { error: 'slow_down' }, { 'retry-after': '99999999' }),
    );
    const api = await server();
    const rest = provider({ me: getTool(`${api.origin}/me`, { auth: oauth(`${tokens.origin}/token`) }) });
    const first = failure(await rest.execute('me', {}, createToolContext()));
    expect(first.error.code).toBe('RATE_LIMITED');
    expect(first.error.details?.retryAfterSeconds).toBe(300);
    expect(api.requests).toHaveLength(0);
  });
});
