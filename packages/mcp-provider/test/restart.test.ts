// A server given up after a crash loop is brought back by provider.restart() once it is fixed,
// without building a new provider: a real server that crashes at start while a marker file exists.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RESTART_POLICY,
  createMcpProvider,
  createMcpProviders,
  createSharedRegistry,
  loadMcpConfig,
} from '../src/index.js';
import { eventLog, fixtureServer, tempDirectory, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

const quickPolicy = { ...DEFAULT_RESTART_POLICY, backoffMs: [0, 10], maxRestarts: 2 };

async function echo(provider: ReturnType<typeof createMcpProvider>, message: string) {
  return provider.execute('echo', { message }, createToolContext());
}

describe('provider.restart() on a server marked failed', () => {
  it('starts the fixed server again, lists its tools, and calls go through', async () => {
    const marker = join(run.path, 'broken-1');
    const log = eventLog();
    const provider = createMcpProvider('phoenix', fixtureServer([`--crash-while=${marker}`]), {
      runDirectory: run.path,
      onEvent: log.onEvent,
      restartPolicy: quickPolicy,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      // break the server, then crash it: every restart crashes at once until it is given up
      writeFileSync(marker, 'broken');
      await provider.execute('crash', {}, createToolContext());
      expect(await waitFor(() => provider.status().state === 'failed', 60_000)).toBe(true);
      const given = await echo(provider, 'x');
      expect(!given.ok && given.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(!given.ok && given.error.message).toContain('call provider.restart()');

      // still broken: restart() fails with the start's error
      const still = await provider.restart().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(ToolError.isInstance(still) && still.code).toBe('PROVIDER_UNAVAILABLE');
      expect((still as Error).message).toMatch(/broken-1 exists/);

      // fixed: restart() brings it back with its tools, and a call goes through
      rmSync(marker);
      const specs = await provider.restart(AbortSignal.timeout(30_000));
      expect(specs.map((spec) => spec.name)).toContain('echo');
      expect(provider.status().state).toBe('ready');
      expect(await echo(provider, 'back')).toMatchObject({
        ok: true,
        content: [{ type: 'text', text: 'back' }],
      });
      // the crash history is forgotten: a new crash is restarted, not given up at once
      const restartsBefore = log.events.filter((event) => event.type === 'server-restarting').length;
      await provider.execute('crash', {}, createToolContext());
      expect(await waitFor(() => provider.status().state === 'ready', 30_000)).toBe(true);
      expect(log.events.filter((event) => event.type === 'server-restarting').length).toBe(
        restartsBefore + 1,
      );
      expect(await echo(provider, 'again')).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  }, 120_000);

  it('restarts a running server on request (a new process; not counted as a crash)', async () => {
    const log = eventLog();
    const provider = createMcpProvider('phoenix', fixtureServer(), {
      runDirectory: run.path,
      onEvent: log.onEvent,
    });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      const before = provider.status().pid;
      await provider.restart(AbortSignal.timeout(30_000));
      const after = provider.status().pid;
      expect(after).toBeDefined();
      expect(after).not.toBe(before);
      expect(log.events.some((event) => event.type === 'server-exited')).toBe(false);
      expect(log.events).toContainEqual({ type: 'server-stopped', server: 'phoenix', reason: 'restart' });
      expect(await echo(provider, 'ok')).toMatchObject({ ok: true });
    } finally {
      await provider.close?.();
    }
  }, 60_000);

  it('revives a shared server for every provider holding it', async () => {
    const marker = join(run.path, 'broken-2');
    const registry = createSharedRegistry();
    const config = fixtureServer([`--crash-while=${marker}`], { shared: true });
    const options = { runDirectory: run.path, registry, restartPolicy: quickPolicy };
    const first = createMcpProvider('phoenix', config, options);
    const second = createMcpProvider('phoenix', config, options);
    try {
      await first.start?.(AbortSignal.timeout(30_000));
      await second.start?.(AbortSignal.timeout(30_000));
      writeFileSync(marker, 'broken');
      await first.execute('crash', {}, createToolContext());
      expect(await waitFor(() => second.status().state === 'failed', 60_000)).toBe(true);
      rmSync(marker);
      await first.restart(AbortSignal.timeout(30_000));
      expect(await echo(second, 'shared')).toMatchObject({ ok: true });
    } finally {
      await first.close?.();
      await second.close?.();
    }
  }, 120_000);

  it('is PROVIDER_UNAVAILABLE once the provider is closed', async () => {
    const provider = createMcpProvider('phoenix', fixtureServer(), { runDirectory: run.path });
    await provider.close?.();
    await expect(provider.restart()).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  it('rejects with the config problem for a server the loader refused (no restart can fix it)', async () => {
    const loaded = await loadMcpConfig(
      { mcpServers: { broken: { command: 'node', timeout: 'x' } } },
      { env: {} },
    );
    const [provider] = createMcpProviders(loaded);
    await expect(provider?.restart()).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});

describe('provider.restart() with a call in flight', () => {
  for (const client of ['v1', 'v2'] as const) {
    it(`fails the call at once with PROVIDER_UNAVAILABLE (not at its timeout) and serves after (client ${client})`, async () => {
      // the request timeout is far longer than the test's own: only the restart can end the call
      // the server notes the call in this file when it has it: the restart comes after that,
      // never before (the call would then be sent to the new server)
      const heard = join(run.path, `hang-heard-${client}`);
      const provider = createMcpProvider(
        'phoenix',
        fixtureServer([`--hang-file=${heard}`], { client, requestTimeoutMs: 600_000 }),
        {
          runDirectory: run.path,
        },
      );
      try {
        await provider.start?.(AbortSignal.timeout(30_000));
        const pending = provider.execute('hang', {}, createToolContext());
        expect(await waitFor(() => existsSync(heard), 30_000)).toBe(true);
        await provider.restart(AbortSignal.timeout(30_000));
        expect(await pending).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
        expect(await echo(provider, 'after')).toMatchObject({ ok: true });
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  }
});
