import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { fixture, waitFor } from './helpers/index.js';

const require = createRequire(import.meta.url);

/** TCP ports a process listens on, from its socket inodes and /proc/net/tcp{,6}. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match) inodes.add(match[1] as string);
    }
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9] as string))
        ports.push(Number.parseInt((fields[1] as string).split(':')[1] as string, 16));
    }
  }
  return ports;
}

describe('supergateway from npm serving a stdio server over WebSocket', () => {
  let gateway: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    const entry = join(dirname(require.resolve('supergateway/package.json')), 'dist', 'index.js');
    gateway = spawn(
      process.execPath,
      [
        entry,
        '--stdio',
        `${process.execPath} ${fixture('server.mjs')}`,
        '--outputTransport',
        'ws',
        '--port',
        '0',
      ],
      { stdio: 'ignore', detached: true },
    );
    const started = await waitFor(() => {
      port = listeningPorts(gateway.pid as number)[0] ?? 0;
      return port > 0;
    }, 20_000);
    if (!started) {
      const message = 'supergateway did not start listening';
      if (process.env.CI === 'true') throw new Error(message);
      console.warn(`skipping: ${message}`);
    }
  });
  afterAll(() => {
    try {
      process.kill(-(gateway.pid as number), 'SIGKILL');
    } catch {}
  });

  // v1 only: supergateway answers the v2 client's string ids with `id: null` (the v2 client over
  // WebSocket is tested in modern-stdio.test.ts through a plain bridge)
  for (const client of ['v1'] as const) {
    it(`client ${client}: lists and calls tools through the WebSocket transport`, async ({ skip }) => {
      if (port === 0) skip();
      const provider = createMcpProvider('gateway', {
        type: 'websocket',
        url: `ws://127.0.0.1:${port}/message`,
        client,
      });
      try {
        await provider.start?.(AbortSignal.timeout(20_000));
        expect(provider.status().transport).toBe('websocket');
        expect((await provider.listTools()).some((spec) => spec.name === 'echo')).toBe(true);
        const result = await provider.execute(
          'echo',
          { message: 'through supergateway' },
          createToolContext(),
        );
        expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'through supergateway' });
      } finally {
        await provider.close?.();
      }
    });
  }

  it('client v2: fails its start at once with what to do, not after the startup timeout', async ({
    skip,
  }) => {
    if (port === 0) skip();
    const provider = createMcpProvider('gateway', {
      type: 'websocket',
      url: `ws://127.0.0.1:${port}/message`,
      client: 'v2',
      // Far beyond the test's own timeout: only the id check can end the start in time.
      startupTimeoutMs: 600_000,
    });
    try {
      await expect(provider.start?.(AbortSignal.timeout(600_000))).rejects.toThrow(
        /answered with "id": null.*use client "v1" for this server/,
      );
      expect(provider.status().state).not.toBe('ready');
    } finally {
      await provider.close?.();
    }
  });
});
