// A hand-written streamable HTTP server on 127.0.0.1 that answers every POST with one JSON body
// (no event streams). Its tools: `echo`; `late`, which answers only when the client cancels it
// (notifications/cancelled), and then anyway, late; `late_answers`, how many late answers it
// sent. Modes move or forget sessions (test/session-id.test.ts).
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SessionMode = 'plain' | 'rotate' | 'forget-once' | 'forget-always' | 'forget-after-list';

export interface JsonHttpServer {
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

const TOOLS = ['echo', 'late', 'late_answers'].map((name) => ({
  name,
  inputSchema: { type: 'object', properties: {} },
}));

/** Starts the server on port 0; `mode` says what it does with sessions. */
export async function jsonHttpServer(mode: SessionMode = 'plain'): Promise<JsonHttpServer> {
  const live = new Set<string>();
  const callIds: string[] = [];
  /** Calls of `late` waiting for their cancel, by request id. */
  const waiting = new Map<unknown, ServerResponse>();
  let initializes = 0;
  let lists = 0;
  let calls = 0;
  let lateAnswers = 0;
  const answer = (response: ServerResponse, id: unknown, result: unknown, headers = {}): void => {
    response
      .writeHead(200, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  };
  const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
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
        const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
        const held = message.method === 'notifications/cancelled' ? waiting.get(cancelled) : undefined;
        response.writeHead(202).end();
        if (held) {
          waiting.delete(cancelled);
          held.once('finish', () => lateAnswers++);
          answer(held, cancelled, text('late'));
        }
        return;
      }
      if (message.method === 'tools/list') {
        lists++;
        answer(response, message.id, { tools: TOOLS });
        return;
      }
      if (message.method === 'tools/call') {
        const name = (message.params as { name?: unknown }).name;
        if (name === 'late') {
          waiting.set(message.id, response);
          return;
        }
        if (name === 'late_answers') {
          answer(response, message.id, text(String(lateAnswers)));
          return;
        }
        calls++;
        callIds.push(session);
        if (mode === 'rotate' && calls === 2) {
          // the server moves this client to a new session id; the old one is gone from now on
          live.delete(session);
          const next = `${session}-moved`;
          live.add(next);
          answer(response, message.id, text('moved'), { 'mcp-session-id': next });
          return;
        }
        if (mode === 'forget-once' && calls === 2) live.delete(session);
        answer(response, message.id, text(`call ${calls}`));
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
