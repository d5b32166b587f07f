import { createToolContext } from '@toolplane/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { eventLog } from './helpers/index.js';
import { type RunningHttpFixture, startHttpFixture } from './helpers/http-fixture.js';

const token = `tok_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
let server: RunningHttpFixture;
beforeAll(async () => {
  server = await startHttpFixture([`--token=${token}`]);
});
afterAll(() => server.close());

const base = (): string => `127.0.0.1:${server.port}`;

describe('remote transports', () => {
  let provider: McpProvider | undefined;
  afterEach(async () => {
    await provider?.close?.();
    provider = undefined;
  });

  it('streamable HTTP with a bearer token: list, call, progress', async () => {
    provider = createMcpProvider('http', { type: 'http', url: `http://${base()}/mcp`, bearerToken: token });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(provider.status().transport).toBe('http');
    expect((await provider.listTools()).some((spec) => spec.name === 'echo')).toBe(true);
    const whoami = await provider.execute('whoami', {}, createToolContext());
    expect(whoami.ok && whoami.content[0]).toEqual({ type: 'text', text: `Bearer ${token}` });
    const updates: unknown[] = [];
    const slow = await provider.execute(
      'slow_progress',
      { steps: 3, intervalMs: 10 },
      createToolContext({ progress: (update) => updates.push(update) }),
    );
    expect(slow.ok).toBe(true);
    expect(updates.length).toBeGreaterThanOrEqual(2);
  });

  it('legacy SSE', async () => {
    provider = createMcpProvider('sse', {
      type: 'sse',
      url: `http://${base()}/sse`,
      headers: { Authorization: `Bearer ${token}` },
    });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(provider.status().transport).toBe('sse');
    const result = await provider.execute('echo', { message: 'over sse' }, createToolContext());
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'over sse' });
  });

  it('a URL without a type tries streamable HTTP first, then falls back to SSE', async () => {
    provider = createMcpProvider('auto', { url: `http://${base()}/mcp`, bearerToken: token });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(provider.status().transport).toBe('http');
    await provider.close?.();
    provider = createMcpProvider('legacy', { url: `http://${base()}/legacy`, bearerToken: token });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(provider.status().transport).toBe('sse');
    const result = await provider.execute('echo', { message: 'fell back' }, createToolContext());
    expect(result.ok).toBe(true);
  });

  it('WebSocket with a bearer token', async () => {
    provider = createMcpProvider('ws', { type: 'websocket', url: `ws://${base()}/ws`, bearerToken: token });
    await provider.start?.(AbortSignal.timeout(20_000));
    expect(provider.status().transport).toBe('websocket');
    const result = await provider.execute('add', { a: 20, b: 22 }, createToolContext());
    expect(result.ok && result.structured).toEqual({ sum: 42 });
  });

  it('reports a refused token clearly', async () => {
    provider = createMcpProvider('denied', {
      type: 'http',
      url: `http://${base()}/mcp`,
      bearerToken: 'wrong-token',
    });
    await expect(provider.start?.(AbortSignal.timeout(20_000))).rejects.toThrow(/"denied".*401/);
  });

  it('reports an unreachable URL clearly', async () => {
    provider = createMcpProvider('nowhere', {
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      startupTimeoutMs: 5_000,
    });
    await expect(provider.start?.(AbortSignal.timeout(20_000))).rejects.toThrow(/"nowhere".*failed to start/);
  });

  it('re-initializes an expired session once for tools/list, and for a tool call the server refused with 404', async () => {
    const log = eventLog();
    provider = createMcpProvider(
      'expiry',
      { type: 'http', url: `http://${base()}/mcp`, bearerToken: token },
      { onEvent: log.onEvent },
    );
    await provider.start?.(AbortSignal.timeout(20_000));
    const count = async (): Promise<number> => {
      const result = await provider!.execute('initialize_count', {}, createToolContext());
      return Number(result.ok && result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN);
    };
    const before = await count();
    await provider.execute('forget_sessions', {}, createToolContext());
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A tool call on the forgotten session is refused with 404 before it runs: it is sent once
    // more on a new session.
    const renewed = await provider.execute('echo', { message: 'x' }, createToolContext());
    expect(renewed).toMatchObject({ ok: true, content: [{ type: 'text', text: 'x' }] });
    const after = await provider.execute('echo', { message: 'again' }, createToolContext());
    expect(after.ok).toBe(true);
    expect(await count()).toBe(before + 1);
    // tools/list is idempotent: it re-initializes transparently.
    await provider.execute('forget_sessions', {}, createToolContext());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const specs = await provider.refreshTools();
    expect(specs.some((spec) => spec.name === 'echo')).toBe(true);
    expect(await count()).toBe(before + 2);
    expect(log.events.filter((event) => event.type === 'session-expired').length).toBe(2);
  });
});

describe('remote server dying mid-call', () => {
  it('fails the call in flight instead of hanging', async () => {
    const own = await startHttpFixture();
    const provider = createMcpProvider('dies', {
      type: 'http',
      url: `http://127.0.0.1:${own.port}/mcp`,
      requestTimeoutMs: 60_000,
    });
    try {
      await provider.start?.(AbortSignal.timeout(20_000));
      const pending = provider.execute('hang', {}, createToolContext());
      await new Promise((resolve) => setTimeout(resolve, 200));
      await own.close();
      const result = await pending;
      expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    } finally {
      await provider.close?.();
      await own.close();
    }
  });
});
