// HTTP servers that misbehave on purpose, on 127.0.0.1: an answer that is an endless event
// stream carrying no response, and a front that refuses the first requests with 401.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, tempDirectory, waitFor } from './helpers/index.js';
import { startHttpFixture } from './helpers/http-fixture.js';

const run = tempDirectory();
afterAll(() => run.remove());

/** Listens on 127.0.0.1 port 0: the MCP URL, and a close that drops every connection. */
async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server whose every POST is answered with an event stream that never ends nor answers. */
async function endlessStreamServer(): Promise<{
  url: string;
  open: () => number;
  close: () => Promise<void>;
}> {
  const streams = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    streams.add(response);
    let count = 0;
    // bounded: at most 20 000 events per stream, one batch every 5 ms
    const timer = setInterval(() => {
      for (let i = 0; i < 50 && count < 20_000; i++, count++) response.write(`data: not json ${count}\n\n`);
    }, 5);
    timers.add(timer);
    response.on('close', () => {
      clearInterval(timer);
      streams.delete(response);
    });
  });
  const listening = await listen(server);
  return {
    url: listening.url,
    open: () => streams.size,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      await listening.close();
    },
  };
}

describe('an HTTP server that answers with an endless event stream', () => {
  it('fails the start naming the startup timeout, reports the junk coalesced, and leaves no stream open', async () => {
    const server = await endlessStreamServer();
    const log = eventLog();
    const provider = createMcpProvider(
      'endless',
      { type: 'http', url: server.url, startupTimeoutMs: 1500, healthIntervalMs: 0 },
      { runDirectory: run.path, onEvent: log.onEvent },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringMatching(/startupTimeoutMs|1500/),
      });
      await provider.close?.();
      // the client hung up every stream it opened: none is left writing to nobody
      expect(await waitFor(() => server.open() === 0, 10_000)).toBe(true);
      const errors = log.events.filter((event) => event.type === 'protocol-error');
      expect(errors.length).toBeLessThan(40);
    } finally {
      await provider.close?.();
      await server.close();
    }
  });
});

/** A front for the fixture server on 127.0.0.1 that answers its first `refusals` requests with 401. */
async function refusingFront(
  target: number,
  refusals: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  let left = refusals;
  const server = createServer(async (request, response) => {
    const body: Buffer[] = [];
    for await (const chunk of request) body.push(chunk as Buffer);
    if (left > 0) {
      left--;
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end('not yet');
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
    }
    try {
      const upstream = await fetch(`http://127.0.0.1:${target}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body: Buffer.concat(body) } : {}),
      });
      response.writeHead(upstream.status, Object.fromEntries(upstream.headers));
      if (!upstream.body) return void response.end();
      const stream = Readable.fromWeb(upstream.body as never);
      // the fixture server is killed at the end with a stream open: end the answer with it
      stream.on('error', () => response.destroy());
      stream.pipe(response);
    } catch {
      response.destroy();
    }
  });
  return listen(server);
}

describe('an HTTP server that answers 401, then 200', () => {
  it('fails the first start naming the 401, a call says the tools are not listed, and the next start succeeds', async () => {
    const fixtureServer = await startHttpFixture();
    const front = await refusingFront(fixtureServer.port, 1);
    const provider = createMcpProvider(
      'flaky',
      { type: 'http', url: front.url, healthIntervalMs: 0 },
      { runDirectory: run.path },
    );
    try {
      await expect(provider.start?.(AbortSignal.timeout(30_000))).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: expect.stringMatching(/401/),
      });
      // a call before the tools are listed says why, not "has no tool" (the tools are unknown)
      const early = await provider.execute('echo', { message: 'early' }, createToolContext());
      expect(early).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
      expect(early.ok || early.error.message).toMatch(
        /has not listed its tools \(its start failed: .*401.*\): start it/,
      );
      // the failure is not kept: the server is asked again
      await provider.start?.(AbortSignal.timeout(30_000));
      const result = await provider.execute('echo', { message: 'again' }, createToolContext());
      expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'again' }] });
      expect(provider.status().state).toBe('ready');
    } finally {
      await provider.close?.();
      await front.close();
      await fixtureServer.close();
    }
  });
});

/** A server whose every POST is answered with one event line of `megabytes` MB and no line break. */
async function endlessLineServer(megabytes: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    if (request.method !== 'POST') return void response.writeHead(405).end();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: ');
    const chunk = 'x'.repeat(1 << 20);
    let sent = 0;
    const pump = (): void => {
      while (sent < megabytes && !response.destroyed) {
        sent++;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
    };
    pump();
  });
  return listen(server);
}

describe('an HTTP server that streams one line with no end', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: fails the start naming the size bound, not holding the line in memory until the timeout`, async () => {
      const server = await endlessLineServer(100);
      const provider = createMcpProvider(
        'endlessLine',
        { type: 'http', url: server.url, client, startupTimeoutMs: 120_000, healthIntervalMs: 0 },
        { runDirectory: run.path },
      );
      try {
        await expect(provider.start?.(AbortSignal.timeout(120_000))).rejects.toMatchObject({
          code: 'PROVIDER_UNAVAILABLE',
          message: expect.stringMatching(/a message from the server exceeds 67108864 bytes/),
        });
      } finally {
        await provider.close?.();
        await server.close();
      }
    });
  }
});

/** A server that answers initialize and tools/list as MCP, and everything in `htmlFor` with a web page. */
async function webPageServer(htmlFor: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (htmlFor.includes(message.method)) {
      return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
    }
    if (message.id === undefined) return void response.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'page', version: '1.0.0' },
          }
        : { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  return listen(server);
}

describe('an HTTP URL that answers with a web page', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: the start fails naming the content type and saying to check the URL`, async () => {
      const server = await webPageServer(['initialize']);
      const provider = createMcpProvider('page', { url: server.url, client, healthIntervalMs: 0 });
      try {
        const failure = await provider.start?.(AbortSignal.timeout(30_000)).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
        expect((failure as Error).message).toMatch(
          /text\/html.*application\/json or text\/event-stream.*check that the URL/,
        );
        expect((failure as Error).message).not.toMatch(/HTTP -1/);
      } finally {
        await provider.close?.();
        await server.close();
      }
    });

    it(`client ${client}: a call answered with a web page fails saying what to check, and the session serves on`, async () => {
      const server = await webPageServer(['tools/call']);
      const provider = createMcpProvider('page', {
        type: 'http',
        url: server.url,
        client,
        healthIntervalMs: 0,
      });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const result = await provider.execute('echo', {}, createToolContext());
        expect(result).toMatchObject({ ok: false, error: { code: 'EXECUTION_FAILED' } });
        expect(result.ok || result.error.message).toMatch(/text\/html.*check that the URL/);
        expect(provider.status().state).toBe('ready');
      } finally {
        await provider.close?.();
        await server.close();
      }
    });
  }
});
