// One low-level server (raw-server.mjs) reached three ways: over stdio with the default client
// (tools/call on the direct path, src/session/direct-calls.ts), and over a plain WebSocket bridge
// with the v1 and the v2 SDK clients (tools/call through each SDK's request machinery). Every
// path must give the same verdicts: output schema failures, a malformed result, the total cap of
// maxTotalTimeoutMs (with and without progress), and a cancel from a caller that has only a signal.
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpProvider, type McpServerConfig, createMcpProvider } from '../src/index.js';
import { fixture, tempDirectory } from './helpers/index.js';
import { type RunningHttpFixture, startHttpFixture } from './helpers/http-fixture.js';

const run = tempDirectory();
let bridge: RunningHttpFixture;
beforeAll(async () => {
  bridge = await startHttpFixture([fixture('raw-server.mjs')], 'ws-bridge.mjs');
});
afterAll(async () => {
  await bridge.close();
  run.remove();
});

// Progress arrives every 20 ms and restarts the 60 s request timer; only the total cap ends it.
const limits = { requestTimeoutMs: 60_000, maxTotalTimeoutMs: 1_000, healthIntervalMs: 0 };
const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
  {
    name: 'stdio, direct path',
    config: () => ({
      type: 'stdio',
      command: process.execPath,
      args: [fixture('raw-server.mjs')],
      ...limits,
    }),
  },
  {
    name: 'WebSocket, SDK 1.x client',
    config: () => ({ type: 'websocket', url: `ws://127.0.0.1:${bridge.port}/`, client: 'v1', ...limits }),
  },
  {
    name: 'WebSocket, v2 client',
    config: () => ({ type: 'websocket', url: `ws://127.0.0.1:${bridge.port}/`, client: 'v2', ...limits }),
  },
];

async function cancellations(provider: McpProvider): Promise<number> {
  const result = await provider.execute('cancellations', {}, createToolContext());
  if (!result.ok) throw new Error(result.error.message);
  return Number(result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN);
}

/** Polls the server's cancel count until it passes `before` (bounded); returns the last count. */
async function cancellationsAfter(provider: McpProvider, before: number): Promise<number> {
  let count = await cancellations(provider);
  for (let i = 0; i < 100 && count <= before; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    count = await cancellations(provider);
  }
  return count;
}

for (const path of paths) {
  describe(`tools/call over ${path.name}`, () => {
    let provider: McpProvider;
    beforeAll(async () => {
      provider = createMcpProvider('paths', path.config(), { runDirectory: run.path });
      await provider.start?.(AbortSignal.timeout(30_000));
    });
    afterAll(() => provider.close?.());

    it('output schema failures are INVALID_RESULT, a kept schema passes', async () => {
      const honest = await provider.execute('honest_output', {}, createToolContext());
      expect(honest.ok && honest.structured).toEqual({ sum: 5 });
      const lying = await provider.execute('lying_output', {}, createToolContext());
      expect(!lying.ok && lying.error.code).toBe('INVALID_RESULT');
      expect(!lying.ok && lying.error.message).toMatch(/output schema/);
      expect(!lying.ok && lying.error.message).toContain('MCP server "paths" tool "lying_output"');
      const missing = await provider.execute('missing_output', {}, createToolContext());
      expect(!missing.ok && missing.error.code).toBe('INVALID_RESULT');
      expect(!missing.ok && missing.error.message).toContain('did not return structured content');
    });

    it('a malformed result is EXECUTION_FAILED, and the connection keeps serving', async () => {
      const malformed = await provider.execute('malformed_result', {}, createToolContext());
      expect(!malformed.ok && malformed.error.code).toBe('EXECUTION_FAILED');
      const good = await provider.execute('good', { n: 3 }, createToolContext());
      expect(good.ok && good.content[0]).toEqual({ type: 'text', text: 'called good with {"n":3}' });
    });

    it('maxTotalTimeoutMs ends a call that keeps sending progress: TIMEOUT naming the setting', async () => {
      const before = await cancellations(provider);
      let updates = 0;
      const result = await provider.execute(
        'progress_until_cancelled',
        {},
        createToolContext({ progress: () => updates++ }),
      );
      expect(!result.ok && result.error.code).toBe('TIMEOUT');
      expect(!result.ok && result.error.message).toContain('maxTotalTimeoutMs');
      expect(updates).toBeGreaterThan(0);
      // the client told the server to stop (notifications/cancelled)
      expect(await cancellationsAfter(provider, before)).toBe(before + 1);
    });

    it('maxTotalTimeoutMs is a hard cap: a call that sends no progress ends there too', async () => {
      const before = await cancellations(provider);
      const result = await provider.execute('wait_for_cancel', {}, createToolContext());
      expect(!result.ok && result.error.code).toBe('TIMEOUT');
      expect(!result.ok && result.error.message).toContain('maxTotalTimeoutMs');
      expect(await cancellationsAfter(provider, before)).toBe(before + 1);
    });

    it('a caller with only a signal (no onAbort) cancels the call at the server', async () => {
      const before = await cancellations(provider);
      const controller = new AbortController();
      const context = createToolContext({ signal: controller.signal });
      expect(context.onAbort).toBeUndefined();
      const pending = provider.execute('wait_for_cancel', {}, context);
      setTimeout(() => controller.abort(new Error('stopped by the caller')), 300); // late enough that the call is at the server on a loaded machine
      const result = await pending;
      expect(!result.ok && result.error.code).toBe('CANCELLED');
      expect(await cancellationsAfter(provider, before)).toBe(before + 1);
    });
  });
}

describe('output schemas of a paged tools/list on every path', () => {
  let pagedBridge: RunningHttpFixture;
  beforeAll(async () => {
    pagedBridge = await startHttpFixture([fixture('raw-server.mjs'), '--pages=6'], 'ws-bridge.mjs');
  });
  afterAll(() => pagedBridge.close());

  const paths: ReadonlyArray<{ name: string; config: () => McpServerConfig }> = [
    {
      name: 'stdio, direct path',
      config: () => ({
        type: 'stdio',
        command: process.execPath,
        args: [fixture('raw-server.mjs'), '--pages=6'],
        healthIntervalMs: 0,
      }),
    },
    {
      name: 'WebSocket, SDK 1.x client',
      config: () => ({
        type: 'websocket',
        url: `ws://127.0.0.1:${pagedBridge.port}/`,
        client: 'v1',
        healthIntervalMs: 0,
      }),
    },
    {
      name: 'WebSocket, v2 client',
      config: () => ({
        type: 'websocket',
        url: `ws://127.0.0.1:${pagedBridge.port}/`,
        client: 'v2',
        healthIntervalMs: 0,
      }),
    },
  ];
  for (const path of paths) {
    it(`checks tools of the first page over ${path.name}`, async () => {
      const provider: McpProvider = createMcpProvider('paged', path.config(), { runDirectory: run.path });
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        expect(await provider.listTools()).toHaveLength(38);
        // lying_output and missing_output are on the first of six pages
        const lying = await provider.execute('lying_output', {}, createToolContext());
        expect(!lying.ok && lying.error.code).toBe('INVALID_RESULT');
        expect(!lying.ok && lying.error.message).toMatch(/output schema/);
        const missing = await provider.execute('missing_output', {}, createToolContext());
        expect(!missing.ok && missing.error.code).toBe('INVALID_RESULT');
        const honest = await provider.execute('honest_output', {}, createToolContext());
        expect(honest.ok && honest.structured).toEqual({ sum: 5 });
      } finally {
        await provider.close?.();
      }
    });
  }
});
