// A server that answers a call after the client gave up on it (the call timed out or was
// cancelled, and the client sent notifications/cancelled): the MCP spec says the sender of the
// cancel should ignore such an answer. Every path must drop it (and its late progress) quietly,
// with no protocol-error: stdio (the v1 client's direct call path, the v2 client), WebSocket (v1
// and v2 through each SDK's request machinery) and streamable HTTP (both clients). The servers
// are hand-written (the SDK's servers never answer a cancelled request).
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, type McpServerConfig, createMcpProvider } from '../src/index.js';
import { eventLog, fixture, hostileServer, tempDirectory } from './helpers/index.js';
import { type JsonHttpServer, jsonHttpServer } from './helpers/json-http-server.js';
import { type RunningHttpFixture, startHttpFixture } from './helpers/http-fixture.js';

const run = tempDirectory();
let bridge: RunningHttpFixture;
let http: JsonHttpServer;
beforeAll(async () => {
  [bridge, http] = await Promise.all([
    startHttpFixture([fixture('hostile-server.mjs'), '--late'], 'ws-bridge.mjs'),
    jsonHttpServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([bridge.close(), http.close()]);
  run.remove();
});

// long enough for a plain call on a loaded machine; `late` runs into it
const limits = { requestTimeoutMs: 3_000, healthIntervalMs: 0 };
const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
  {
    name: 'stdio, client v1 (direct path)',
    config: () => hostileServer(['--late'], { ...limits, client: 'v1' }),
  },
  { name: 'stdio, client v2', config: () => hostileServer(['--late'], { ...limits, client: 'v2' }) },
  ...(['v1', 'v2'] as const).map((client) => ({
    name: `WebSocket, client ${client}`,
    config: (): McpServerConfig => ({
      type: 'websocket',
      url: `ws://127.0.0.1:${bridge.port}/`,
      client,
      ...limits,
    }),
  })),
  ...(['v1', 'v2'] as const).map((client) => ({
    name: `streamable HTTP, client ${client}`,
    config: (): McpServerConfig => ({ type: 'http', url: http.url, client, ...limits }),
  })),
];

for (const path of paths) {
  describe(`a late answer over ${path.name}`, () => {
    const log = eventLog();
    let provider: McpProvider;
    let seen = 0;
    beforeAll(async () => {
      provider = createMcpProvider('late', path.config(), { runDirectory: run.path, onEvent: log.onEvent });
      await provider.start?.(AbortSignal.timeout(30_000));
      seen = await lateAnswers();
    });
    afterAll(() => provider.close?.());

    async function lateAnswers(): Promise<number> {
      const result = await provider.execute('late_answers', {}, createToolContext());
      if (!result.ok) throw new Error(result.error.message);
      return Number(result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN);
    }

    /** Waits (bounded) until the server has sent one more late answer, and the client read it. */
    async function lateAnswerSent(): Promise<void> {
      for (let i = 0; i < 200 && (await lateAnswers()) <= seen; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      seen++;
      expect(await lateAnswers()).toBe(seen);
      // over HTTP the late answer comes on a response of its own, maybe after the count's
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const reports = () =>
      log.events.filter(
        (event) => event.type === 'protocol-error' && /unknown (message ID|token)/.test(event.message),
      );

    it('to a call the caller cancelled is dropped quietly, and the session serves on', async () => {
      const controller = new AbortController();
      const pending = provider.execute('late', {}, createToolContext({ signal: controller.signal }));
      setTimeout(() => controller.abort(new Error('user pressed stop')), 300); // the call is at the server by then
      expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      await lateAnswerSent();
      expect(reports()).toEqual([]);
      expect(provider.status().state).toBe('ready');
    });

    it('to a call that timed out is dropped quietly, and the session serves on', async () => {
      const result = await provider.execute('late', {}, createToolContext());
      expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      await lateAnswerSent();
      expect(reports()).toEqual([]);
      expect((await provider.execute('echo', {}, createToolContext())).ok).toBe(true);
    });
  });
}

describe('a late answer whose id is the request number written as a string', () => {
  let stringIdBridge: RunningHttpFixture;
  beforeAll(async () => {
    stringIdBridge = await startHttpFixture(
      [fixture('hostile-server.mjs'), '--late', '--late-string-ids'],
      'ws-bridge.mjs',
    );
  });
  afterAll(() => stringIdBridge.close());

  const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
    {
      name: 'stdio, client v2',
      config: () => hostileServer(['--late', '--late-string-ids'], { client: 'v2', requestTimeoutMs: 3_000 }),
    },
    {
      name: 'WebSocket, client v1',
      config: () => ({
        type: 'websocket',
        url: `ws://127.0.0.1:${stringIdBridge.port}/`,
        requestTimeoutMs: 3_000,
      }),
    },
  ];
  for (const path of paths) {
    it(`is dropped quietly as the SDKs match a live answer "3" to request 3 (${path.name})`, async () => {
      const log = eventLog();
      const provider = createMcpProvider('late', path.config(), {
        runDirectory: run.path,
        onEvent: log.onEvent,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const count = async (): Promise<number> => {
          const result = await provider.execute('late_answers', {}, createToolContext());
          return Number(
            result.ok && result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN,
          );
        };
        const controller = new AbortController();
        const pending = provider.execute('late', {}, createToolContext({ signal: controller.signal }));
        setTimeout(() => controller.abort(new Error('stop')), 300);
        expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
        for (let i = 0; i < 200 && (await count()) < 1; i++) await new Promise((r) => setTimeout(r, 50));
        expect(await count()).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const reports = log.events.filter(
          (event) => event.type === 'protocol-error' && /unknown (message ID|token)/.test(event.message),
        );
        expect(reports).toEqual([]);
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});
