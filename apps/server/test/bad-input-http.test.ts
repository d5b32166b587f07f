import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { awaitFreshRateWindow } from './helpers/rate-window.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

/** Sends raw bytes and answers what the server wrote back before it closed (bounded by `waitMs`). */
function rawExchange(port: number, chunks: string[], waitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, waitMs);
    socket.on('data', (data) => {
      answer += data.toString('utf8');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

describe.each(storages())('bad input over HTTP on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({
      storage: kind,
      maxBodyBytes: 64 * 1024,
      rateLimitPerMinute: 40,
      requestTimeoutMs: 1_500,
      headersTimeoutMs: 1_000,
    });
    await putCustomTool(t, 'echo', ECHO_TOOL);
    agentKey = await makeKey(t, t.adminKey, 'agent', 'fuzzer');
    await grant(t, 'agent', 'fuzzer', ['custom__echo']);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/v1/tools/custom__echo/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json', ...headers },
      body,
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { error: { code: string; reason: string; message: string } },
    }));

  it.skipIf(skip)('refuses a body that is not JSON with 400 invalid_json', async () => {
    const answer = await post('{"arguments": ');
    expect([answer.status, answer.body.error.reason]).toEqual([400, 'invalid_json']);
  });

  it.skipIf(skip)('refuses a body sent as another content type with 400 not_json', async () => {
    const answer = await post('arguments=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect([answer.status, answer.body.error.reason]).toEqual([400, 'not_json']);
  });

  it.skipIf(skip)('refuses a body over the limit with 413 body_too_large, declared or streamed', async () => {
    const big = JSON.stringify({ arguments: { text: 'x'.repeat(70 * 1024) } });
    const declared = await post(big);
    expect([declared.status, declared.body.error.reason]).toEqual([413, 'body_too_large']);
    // no Content-Length: the limit is counted as the chunks arrive
    const chunk = `2000\r\n${'x'.repeat(0x2000)}\r\n`;
    const head = `POST /v1/tools/custom__echo/call HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${agentKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const answer = await rawExchange(
      t.server.port,
      [head, ...Array.from({ length: 10 }, () => chunk)],
      5_000,
    );
    expect(answer.startsWith('HTTP/1.1 413')).toBe(true);
    expect(answer).toContain('body_too_large');
  });

  it.skipIf(skip)(
    'refuses a gzip body (a gzip bomb never inflates) with 415 encoding_unsupported',
    async () => {
      const bomb = gzipSync(Buffer.from(JSON.stringify({ arguments: { text: 'a'.repeat(5_000_000) } })));
      expect(bomb.length).toBeLessThan(64 * 1024);
      const answer = await post(bomb, { 'content-encoding': 'gzip' });
      expect([answer.status, answer.body.error.reason]).toEqual([415, 'encoding_unsupported']);
    },
  );

  it.skipIf(skip)('refuses JSON nested deeper than 64 levels with 400 too_deep', async () => {
    const deep = `{"arguments":{"text":"x","n":${'['.repeat(30_000)}${']'.repeat(30_000)}}}`;
    const answer = await post(deep);
    expect([answer.status, answer.body.error.reason]).toEqual([400, 'too_deep']);
    const deepSmall = `{"arguments":{"text":"x","n":${'['.repeat(200)}${']'.repeat(200)}}}`;
    const nested = await post(deepSmall);
    expect([nested.status, nested.body.error.reason]).toEqual([400, 'too_deep']);
  });

  it.skipIf(skip)(
    'answers an unknown route with 404 route_not_found and a wrong method with 405 and Allow',
    async () => {
      const unknown = await t.api('GET', '/v1/nothing-here', { key: agentKey });
      expect([unknown.status, unknown.body.error.reason]).toEqual([404, 'route_not_found']);
      const wrong = await t.api('DELETE', '/v1/tools', { key: agentKey });
      expect([wrong.status, wrong.body.error.reason]).toEqual([405, 'method_not_allowed']);
      expect(wrong.headers.get('allow')).toContain('GET');
    },
  );

  it.skipIf(skip)(
    'closes a connection whose headers never finish (slowloris) with 408 or a closed socket',
    async () => {
      const answer = await rawExchange(
        t.server.port,
        ['POST /v1/tools HTTP/1.1\r\nHost: x\r\nX-Slow: '],
        10_000,
      );
      // node answers 408 Request Timeout, or closes the socket without a word
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    },
  );

  it.skipIf(skip)('closes a connection whose body never finishes with 408 or a closed socket', async () => {
    const head = `POST /v1/tools/custom__echo/call HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${agentKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"argu`;
    const answer = await rawExchange(t.server.port, [head], 10_000);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it.skipIf(skip)(
    'limits calls per key in the database: 429 RATE_LIMITED past the limit, other keys unaffected',
    async () => {
      const otherKey = await makeKey(t, t.adminKey, 'agent', 'fuzzer');
      await awaitFreshRateWindow();
      const statuses: number[] = [];
      for (let i = 0; i < 45; i += 1) {
        const call = await t.api('POST', '/v1/tools/custom__echo/call', {
          key: agentKey,
          body: { arguments: { text: 'r' } },
        });
        statuses.push(call.status);
        if (call.status === 429) {
          expect(call.body.result.error.code).toBe('RATE_LIMITED');
          break;
        }
      }
      expect(statuses).toContain(429);
      const other = await t.api('POST', '/v1/tools/custom__echo/call', {
        key: otherKey,
        body: { arguments: { text: 'r' } },
      });
      expect(other.status).toBe(200);
    },
  );
});
