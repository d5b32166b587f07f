// Both protocol generations over stdio: the v2 client (2026-07-28) through our own stdio
// transport, against a v2 server and a 2025 server, and the default v1 client against the v2 one.
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpProvider, createMcpProvider } from '../src/index.js';
import { fixture, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';
import { startHttpFixture } from './helpers/http-fixture.js';

const run = tempDirectory();
afterAll(() => run.remove());

function stdio(file: string, client: 'v1' | 'v2', tag = uniqueTag()) {
  return {
    type: 'stdio' as const,
    command: process.execPath,
    args: [fixture(file), `--tag=${tag}`],
    client,
    healthIntervalMs: 0,
  };
}

async function counted(provider: McpProvider): Promise<number> {
  const result = await provider.execute('hang_cancellations', {}, createToolContext());
  return Number(result.ok && result.content[0]?.type === 'text' ? result.content[0].text : Number.NaN);
}

describe('both protocol generations over stdio', () => {
  it('client v2 speaks 2026-07-28 with a v2 stdio server: list, call, cancel, and no process left', async () => {
    const tag = uniqueTag();
    const provider = createMcpProvider('modern', stdio('modern-stdio-server.mjs', 'v2', tag), {
      runDirectory: run.path,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(provider.status().identity?.protocolVersion).toBe('2026-07-28');
      expect(provider.status().transport).toBe('stdio');
      expect((await provider.listTools()).map((spec) => spec.name).sort()).toEqual([
        'echo',
        'hang',
        'hang_cancellations',
      ]);
      const echoed = await provider.execute('echo', { message: 'over stdio' }, createToolContext());
      expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: 'over stdio' });
      const before = await counted(provider);
      const controller = new AbortController();
      const pending = provider.execute('hang', {}, createToolContext({ signal: controller.signal }));
      setTimeout(() => controller.abort(), 300); // the call is at the server by then, even on a loaded machine
      expect(!(await pending).ok).toBe(true);
      let after = await counted(provider);
      for (let i = 0; i < 100 && after <= before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await counted(provider);
      }
      expect(after).toBe(before + 1);
    } finally {
      await provider.close?.();
    }
    expect(await waitFor(() => pidsWithTag(tag).length === 0, 10_000)).toBe(true);
  });

  it('the default v1 client works with the same v2 stdio server', async () => {
    const provider = createMcpProvider('modern_v1', stdio('modern-stdio-server.mjs', 'v1'), {
      runDirectory: run.path,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(provider.status().identity?.protocolVersion).not.toBe('2026-07-28');
      const echoed = await provider.execute('echo', { message: 'v1' }, createToolContext());
      expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: 'v1' });
    } finally {
      await provider.close?.();
    }
  });

  it('client v2 negotiates down with a 2025 stdio server, and a kill -9 mid-call fails the call', async () => {
    const provider = createMcpProvider('classic', stdio('server.mjs', 'v2'), { runDirectory: run.path });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(provider.status().identity?.protocolVersion).not.toBe('2026-07-28');
      const echoed = await provider.execute('echo', { message: 'down' }, createToolContext());
      expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: 'down' });
      const pending = provider.execute('hang', {}, createToolContext());
      await new Promise((resolve) => setTimeout(resolve, 100));
      process.kill(provider.status().pid as number, 'SIGKILL');
      const result = await pending;
      expect(!result.ok && result.error.code).toBe('PROVIDER_UNAVAILABLE');
    } finally {
      await provider.close?.();
    }
  });

  it('client v2 over WebSocket (a plain bridge to the v2 stdio server) speaks 2026-07-28', async () => {
    const bridge = await startHttpFixture([fixture('modern-stdio-server.mjs')], 'ws-bridge.mjs');
    const provider = createMcpProvider('bridged', {
      type: 'websocket',
      url: `ws://127.0.0.1:${bridge.port}/`,
      client: 'v2',
      healthIntervalMs: 0,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(provider.status().identity?.protocolVersion).toBe('2026-07-28');
      const echoed = await provider.execute('echo', { message: 'over ws' }, createToolContext());
      expect(echoed.ok && echoed.content[0]).toEqual({ type: 'text', text: 'over ws' });
    } finally {
      await provider.close?.();
      await bridge.close();
    }
  });
});
