import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrchestrator } from '@toolplane/orchestrator';
import { type McpProvider, type McpServerConfig, createMcpProvider } from '../src/index.js';
import { type RunningHttpFixture, startHttpFixture } from './helpers/http-fixture.js';

let modern: RunningHttpFixture;
let classic: RunningHttpFixture;
beforeAll(async () => {
  [modern, classic] = await Promise.all([startHttpFixture([], 'modern-server.mjs'), startHttpFixture()]);
});
afterAll(async () => {
  await Promise.all([modern.close(), classic.close()]);
});

/** One case: a provider, started, then closed after `body`. */
async function withStarted(
  name: string,
  config: McpServerConfig,
  body: (provider: McpProvider) => Promise<void>,
): Promise<void> {
  const provider = createMcpProvider(name, config);
  try {
    await provider.start?.(AbortSignal.timeout(20_000));
    await body(provider);
  } finally {
    await provider.close?.();
  }
}

/** The server adds a tool and announces it: the provider hears the change, re-lists, and calls it. */
async function followsAddedTool(provider: McpProvider): Promise<void> {
  let told = 0;
  provider.onToolsChanged?.(() => told++);
  const added = await provider.execute('add_tool', {}, createToolContext());
  expect(added.ok).toBe(true);
  for (let i = 0; i < 200 && told === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(told).toBeGreaterThan(0);
  expect((await provider.listTools()).some((spec) => spec.name === 'late_tool')).toBe(true);
  const late = await provider.execute('late_tool', {}, createToolContext());
  expect(late.ok && late.content[0]).toEqual({ type: 'text', text: 'late' });
}

describe('both protocol generations', () => {
  it('client v2 speaks the stateless 2026-07-28 revision with a v2 server', async () => {
    await withStarted(
      'modern',
      {
        type: 'http',
        url: `http://127.0.0.1:${modern.port}/mcp`,
        client: 'v2',
      },
      async (provider) => {
        expect(provider.status().identity?.protocolVersion).toBe('2026-07-28');
        expect((await provider.listTools()).map((spec) => spec.name).sort()).toEqual([
          'add',
          'add_tool',
          'echo',
        ]);
        const result = await provider.execute('echo', { message: 'modern' }, createToolContext());
        expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'modern' });
        const invalid = await provider.execute('add', { a: 'x' }, createToolContext());
        expect(!invalid.ok && invalid.error.code).toBe('INVALID_ARGUMENTS');
      },
    );
  });

  it('the default v1 client works with the same v2 server (its 2025 fallback)', async () => {
    await withStarted('modernv1', { url: `http://127.0.0.1:${modern.port}/mcp` }, async (provider) => {
      const result = await provider.execute('add', { a: 1, b: 2 }, createToolContext());
      expect(result.ok && result.content[0]).toEqual({ type: 'text', text: '3' });
    });
  });

  it('client v2 negotiates down with a 2025 server', async () => {
    await withStarted(
      'classic',
      {
        type: 'http',
        url: `http://127.0.0.1:${classic.port}/mcp`,
        client: 'v2',
      },
      async (provider) => {
        expect(provider.status().identity?.protocolVersion).not.toBe('2026-07-28');
        const result = await provider.execute('echo', { message: 'classic' }, createToolContext());
        expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'classic' });
      },
    );
  });
});

describe('cancellation over HTTP (SDK paths, the caller signal read lazily)', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`client ${client}: a call cancelled through the orchestrator is cancelled at the server`, async () => {
      const orchestrator = createOrchestrator();
      orchestrator.register(
        createMcpProvider('remote', { type: 'http', url: `http://127.0.0.1:${classic.port}/mcp`, client }),
      );
      const heard = async (): Promise<number> => {
        const count = await orchestrator.call('remote__hang_cancellations', {});
        return Number(count.ok && count.content[0]?.type === 'text' ? count.content[0].text : Number.NaN);
      };
      try {
        await orchestrator.warmup();
        const before = await heard();
        const controller = new AbortController();
        const pending = orchestrator.call('remote__hang', {}, { signal: controller.signal });
        setTimeout(() => controller.abort(), 300); // the call is at the server by then, even on a loaded machine
        const result = await pending;
        expect(!result.ok && result.error.code).toBe('CANCELLED');
        // the orchestrator answers CANCELLED by itself; the server hears it only when the SDK
        // request followed the caller's cancellation (notifications/cancelled)
        let count = await heard();
        for (let i = 0; i < 100 && count <= before; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          count = await heard();
        }
        expect(count).toBe(before + 1);
      } finally {
        await orchestrator.close();
      }
    });
  }
});

describe('list changes on a 2026-07-28 session (subscriptions/listen)', () => {
  it('client v2 hears tools/list_changed on its listen stream and the provider re-lists', async () => {
    await withStarted(
      'modern_changes',
      {
        type: 'http',
        url: `http://127.0.0.1:${modern.port}/mcp`,
        client: 'v2',
        healthIntervalMs: 0,
      },
      async (provider) => {
        expect(provider.status().identity?.protocolVersion).toBe('2026-07-28');
        await followsAddedTool(provider);
      },
    );
  });
});

describe('client v2 on a 2025 session (SDK 1.x server)', () => {
  for (const [type, path] of [
    ['http', '/mcp'],
    ['sse', '/sse'],
  ] as const) {
    it(`over ${type}: calls, and follows notifications/tools/list_changed`, async () => {
      await withStarted(
        `classic_${type}`,
        {
          type,
          url: `http://127.0.0.1:${classic.port}${path}`,
          client: 'v2',
          healthIntervalMs: 0,
        },
        async (provider) => {
          expect(provider.status().transport).toBe(type);
          const version = provider.status().identity?.protocolVersion;
          expect(version).toMatch(/^2025-/);
          const echoed = await provider.execute('echo', { message: `v2 over ${type}` }, createToolContext());
          expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: `v2 over ${type}` });
          expect((await provider.listTools()).some((spec) => spec.name === 'late_tool')).toBe(false);
          await followsAddedTool(provider);
        },
      );
    });
  }
});
