// A session id that changes over streamable HTTP, against a hand-written JSON-only server on
// 127.0.0.1: a server that hands out a new Mcp-Session-Id on a later answer, one that forgets
// the session once, and one that forgets every session as soon as it is made (the provider
// re-initializes once per failure and never loops).
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolContext } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY, createMcpProvider } from '../src/index.js';
import { eventLog, waitFor } from './helpers.js';

type Mode = 'rotate' | 'forget-once' | 'forget-always' | 'forget-after-list';

interface SessionServer {
  readonly url: string;
  /** Sessions initialized so far. */
  initializes(): number;
  /** Session ids sent with each tools/call, in order. */
  readonly callIds: string[];
  close(): Promise<void>;
}

/** Reads a JSON body (bounded by the test's own requests). */
async function body(request: IncomingMessage): Promise<{ id?: unknown; method?: string; params?: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function sessionServer(mode: Mode): Promise<SessionServer> {
  const live = new Set<string>();
  const callIds: string[] = [];
  let initializes = 0;
  let lists = 0;
  let calls = 0;
  const tool = { name: 'echo', inputSchema: { type: 'object', properties: {} } };
  const answer = (response: ServerResponse, id: unknown, result: unknown, headers = {}): void => {
    response
      .writeHead(200, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  };
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST') {
        request.resume();
        response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
        return;
      }
      const message = await body(request);
      if (message.method === 'initialize') {
        initializes++;
        const id = `s-${initializes}`;
        live.add(id);
        const version = (message.params as { protocolVersion?: string }).protocolVersion;
        answer(
          response,
          message.id,
          {
            protocolVersion: version,
            capabilities: { tools: {} },
            serverInfo: { name: 'session-server', version: '1.0.0' },
          },
          { 'mcp-session-id': id },
        );
        return;
      }
      const session = String(request.headers['mcp-session-id'] ?? '');
      const forgetNow =
        mode === 'forget-always' && message.method !== 'notifications/initialized'
          ? true
          : mode === 'forget-after-list' && lists > 0 && message.method !== 'notifications/initialized';
      if (!live.has(session) || forgetNow) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32001, message: 'Session not found' },
          }),
        );
        return;
      }
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      if (message.method === 'tools/list') {
        lists++;
        answer(response, message.id, { tools: [tool] });
        return;
      }
      if (message.method === 'tools/call') {
        calls++;
        callIds.push(session);
        if (mode === 'rotate' && calls === 2) {
          // the server moves this client to a new session id; the old one is gone from now on
          live.delete(session);
          const next = `${session}-moved`;
          live.add(next);
          answer(
            response,
            message.id,
            { content: [{ type: 'text', text: 'moved' }] },
            { 'mcp-session-id': next },
          );
          return;
        }
        if (mode === 'forget-once' && calls === 2) live.delete(session);
        answer(response, message.id, { content: [{ type: 'text', text: `call ${calls}` }] });
        return;
      }
      answer(response, message.id, {});
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    initializes: () => initializes,
    callIds,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const context = () => createToolContext();

describe('streamable HTTP: a session id that changes', () => {
  it('follows a new Mcp-Session-Id the server hands out on a later answer', async () => {
    const server = await sessionServer('rotate');
    const provider = createMcpProvider('rotate', { type: 'http', url: server.url, healthIntervalMs: 0 });
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true); // answered with a new id
      const third = await provider.execute('echo', {}, context());
      expect(third.ok).toBe(true);
      expect(server.callIds).toEqual(['s-1', 's-1', 's-1-moved']);
      expect(server.initializes()).toBe(1);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });

  it('client v2 keeps the id it was given: the next call gets 404 and fails, once, then a new session serves', async () => {
    const server = await sessionServer('rotate');
    const provider = createMcpProvider('rotate-v2', {
      type: 'http',
      url: server.url,
      healthIntervalMs: 0,
      client: 'v2',
    });
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true); // answered with a new id
      const failed = await provider.execute('echo', {}, context());
      expect(!failed.ok && failed.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(!failed.ok && failed.error.message).toMatch(/HTTP 404.*call again/);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect(server.initializes()).toBe(2);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });

  it('re-initializes once after a 404 for the session it was given, then works', async () => {
    const server = await sessionServer('forget-once');
    const log = eventLog();
    const provider = createMcpProvider(
      'forget-once',
      { type: 'http', url: server.url, healthIntervalMs: 0 },
      { onEvent: log.onEvent },
    );
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true); // the server forgets after this
      const failed = await provider.execute('echo', {}, context());
      expect(!failed.ok && failed.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(!failed.ok && failed.error.message).toMatch(/HTTP 404.*call again/);
      const again = await provider.execute('echo', {}, context());
      expect(again.ok).toBe(true);
      expect(server.callIds.at(-1)).toBe('s-2');
      expect(server.initializes()).toBe(2);
      expect(log.events.filter((event) => event.type === 'session-expired')).toHaveLength(1);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });

  it('client v2: re-initializes once after a 404 for the session it was given, then works', async () => {
    const server = await sessionServer('forget-once');
    const log = eventLog();
    const provider = createMcpProvider(
      'forget-once-v2',
      { type: 'http', url: server.url, healthIntervalMs: 0, client: 'v2' },
      { onEvent: log.onEvent },
    );
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      expect((await provider.execute('echo', {}, context())).ok).toBe(true);
      expect((await provider.execute('echo', {}, context())).ok).toBe(true); // the server forgets after this
      const failed = await provider.execute('echo', {}, context());
      expect(!failed.ok && failed.error.code).toBe('PROVIDER_UNAVAILABLE');
      const again = await provider.execute('echo', {}, context());
      expect(again.ok).toBe(true);
      expect(server.initializes()).toBe(2);
      expect(log.events.filter((event) => event.type === 'session-expired')).toHaveLength(1);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });

  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: fails the start when the new session is refused too, after one re-initialization`, async () => {
      const server = await sessionServer('forget-always');
      const provider = createMcpProvider('forget-always', {
        type: 'http',
        url: server.url,
        healthIntervalMs: 0,
      });
      try {
        await expect(provider.start?.(AbortSignal.timeout(20_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(/HTTP 404.*after one re-initialization.*session affinity/),
        });
        expect(server.initializes()).toBe(2);
      } finally {
        await provider.close?.();
        await server.close();
      }
    });
  }

  it('does not loop when every new session is forgotten at once after it worked', async () => {
    const server = await sessionServer('forget-after-list');
    const log = eventLog();
    const provider = createMcpProvider(
      'forget-after-list',
      { type: 'http', url: server.url, healthIntervalMs: 0 },
      { onEvent: log.onEvent, restartPolicy: { ...DEFAULT_RESTART_POLICY, backoffMs: [0], maxRestarts: 1 } },
    );
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      const failed = await provider.execute('echo', {}, context());
      expect(!failed.ok && failed.error.code).toBe('PROVIDER_UNAVAILABLE');
      // The call's 404 re-initializes once (2); the listing of that new session gets 404 and is
      // reported, not renewed; the session is then lost and restarted by the restart policy (3),
      // which gives up after its one restart. A re-initialization is no crash: renewing a new
      // session's failed listing would re-initialize without end.
      expect(await waitFor(() => log.events.some((event) => event.type === 'server-failed'), 20_000)).toBe(
        true,
      );
      expect(server.initializes()).toBe(3);
      expect(log.events.filter((event) => event.type === 'session-expired')).toHaveLength(1);
      const reports = log.events.filter(
        (event) => event.type === 'protocol-error' && /tools\/list failed: .*HTTP 404/.test(event.message),
      );
      expect(reports).toHaveLength(2);
      const after = await provider.execute('echo', {}, context());
      expect(!after.ok && after.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(server.initializes()).toBe(3);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});
