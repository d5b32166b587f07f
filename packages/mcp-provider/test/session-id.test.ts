// A session id that changes over streamable HTTP, against a hand-written JSON-only server on
// 127.0.0.1: a server that hands out a new Mcp-Session-Id on a later answer, one that forgets
// the session once, and one that forgets every session as soon as it is made (the provider
// re-initializes once per failure and never loops).
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESTART_POLICY,
  type McpProvider,
  type McpProviderEvent,
  type McpProviderOptions,
  type McpRemoteServerConfig,
  createMcpProvider,
} from '../src/index.js';
import { eventLog, waitFor } from './helpers/index.js';
import { type JsonHttpServer, type SessionMode, jsonHttpServer } from './helpers/json-http-server.js';

/** One case: a server in `mode`, a provider over streamable HTTP to it (closed after `body`). */
async function withSessionServer(
  mode: SessionMode,
  name: string,
  config: Partial<McpRemoteServerConfig>,
  body: (run: { server: JsonHttpServer; provider: McpProvider; events: McpProviderEvent[] }) => Promise<void>,
  options: McpProviderOptions = {},
): Promise<void> {
  const server = await jsonHttpServer(mode);
  const log = eventLog();
  const provider = createMcpProvider(
    name,
    { type: 'http', url: server.url, healthIntervalMs: 0, ...config },
    { onEvent: log.onEvent, ...options },
  );
  try {
    await body({ server, provider, events: log.events });
  } finally {
    await provider.close?.();
    await server.close();
  }
}

const context = () => createToolContext();

describe('streamable HTTP: a session id that changes', () => {
  it('follows a new Mcp-Session-Id the server hands out on a later answer', async () => {
    await withSessionServer('rotate', 'rotate', {}, async ({ server, provider }) => {
      await provider.start?.(AbortSignal.timeout(20_000));
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true); // answered with a new id
      const third = await provider.execute('echo', {}, context());
      expect(third.ok).toBe(true);
      expect(server.callIds).toEqual(['s-1', 's-1', 's-1-moved']);
      expect(server.initializes()).toBe(1);
    });
  });

  it('client v2 keeps the id it was given: the next call gets 404, and is sent again on a new session', async () => {
    await withSessionServer('rotate', 'rotate-v2', { client: 'v2' }, async ({ server, provider }) => {
      await provider.start?.(AbortSignal.timeout(20_000));
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true); // answered with a new id
      // refused with 404 before it ran: re-initialized, and the call sent once more
      const third = await provider.execute('echo', {}, context());
      expect(third).toMatchObject({ ok: true, content: [{ type: 'text', text: 'call 3' }] });
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect(server.callIds).toEqual(['s-1', 's-1', 's-2', 's-2']);
      expect(server.initializes()).toBe(2);
    });
  });

  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: re-initializes once after a 404 for the session it was given, and sends the refused call again`, async () => {
      await withSessionServer(
        'forget-once',
        'forget-once',
        { client },
        async ({ server, provider, events }) => {
          await provider.start?.(AbortSignal.timeout(20_000));
          expect((await provider.execute('echo', {}, context())).ok).toBe(true);
          expect((await provider.execute('echo', {}, context())).ok).toBe(true); // the server forgets after this
          // refused with 404 before it ran: re-initialized, and the call sent once more
          const third = await provider.execute('echo', {}, context());
          expect(third).toMatchObject({ ok: true, content: [{ type: 'text', text: 'call 3' }] });
          const again = await provider.execute('echo', {}, context());
          expect(again.ok).toBe(true);
          expect(server.callIds).toEqual(['s-1', 's-1', 's-2', 's-2']);
          expect(server.initializes()).toBe(2);
          expect(events.filter((event) => event.type === 'session-expired')).toHaveLength(1);
        },
      );
    });
  }

  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: calls in flight refused with 404 together share one re-initialization, each runs once`, async () => {
      await withSessionServer('forget-once', 'together', { client }, async ({ server, provider }) => {
        await provider.start?.(AbortSignal.timeout(20_000));
        expect((await provider.execute('echo', {}, context())).ok).toBe(true);
        expect((await provider.execute('echo', {}, context())).ok).toBe(true); // the server forgets after this
        const results = await Promise.all(
          Array.from({ length: 4 }, () => provider.execute('echo', {}, context())),
        );
        expect(results.map((result) => (result.ok ? 'ok' : result.error.message))).toEqual([
          'ok',
          'ok',
          'ok',
          'ok',
        ]);
        expect(server.callIds).toEqual(['s-1', 's-1', 's-2', 's-2', 's-2', 's-2']);
        expect(server.initializes()).toBe(2);
      });
    });

    it(`client ${client}: fails the start when the new session is refused too, after one re-initialization`, async () => {
      await withSessionServer('forget-always', 'forget-always', { client }, async ({ server, provider }) => {
        await expect(provider.start?.(AbortSignal.timeout(20_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(/HTTP 404.*after one re-initialization.*session affinity/),
        });
        expect(server.initializes()).toBe(2);
      });
    });
  }

  it('does not loop when every new session is forgotten at once after it worked', async () => {
    await withSessionServer(
      'forget-after-list',
      'forget-after-list',
      {},
      async ({ server, provider, events }) => {
        await provider.start?.(AbortSignal.timeout(20_000));
        const failed = await provider.execute('echo', {}, context());
        expect(!failed.ok && failed.error.code).toBe('PROVIDER_UNAVAILABLE');
        // sent once more on the new session, refused again: it says so, and is not sent a third time
        expect(!failed.ok && failed.error.message).toMatch(
          /HTTP 404.*after one re-initialization, and the call did not run.*session affinity/,
        );
        expect(server.callIds).toEqual([]);
        // The call's 404 re-initializes once (2); the listing of that new session gets 404 and is
        // reported, not renewed; the session is then lost and restarted by the restart policy (3),
        // which gives up after its one restart. A re-initialization is no crash: renewing a new
        // session's failed listing would re-initialize without end.
        expect(await waitFor(() => events.some((event) => event.type === 'server-failed'), 20_000)).toBe(
          true,
        );
        expect(server.initializes()).toBe(3);
        expect(events.filter((event) => event.type === 'session-expired')).toHaveLength(1);
        const reports = events.filter(
          (event) => event.type === 'protocol-error' && /tools\/list failed: .*HTTP 404/.test(event.message),
        );
        expect(reports).toHaveLength(2);
        const after = await provider.execute('echo', {}, context());
        expect(!after.ok && after.error.code).toBe('PROVIDER_UNAVAILABLE');
        expect(server.initializes()).toBe(3);
      },
      { restartPolicy: { ...DEFAULT_RESTART_POLICY, backoffMs: [0], maxRestarts: 1 } },
    );
  });
});
