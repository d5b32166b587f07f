// A shared server runs one process under one restart policy, kill grace and run directory: a
// second provider that asks for others is refused while the first holds the server, rather than
// run under the first provider's settings unseen.
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RESTART_POLICY,
  type McpProviderOptions,
  createMcpProvider,
  createSharedRegistry,
} from '../src/index.js';
import { fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

function creationError(create: () => unknown): unknown {
  try {
    create();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('providers of one shared server with different settings', () => {
  const cases: readonly [string, McpProviderOptions, McpProviderOptions, RegExp][] = [
    [
      'restartPolicy',
      { restartPolicy: { ...DEFAULT_RESTART_POLICY, maxRestarts: 2 } },
      { restartPolicy: DEFAULT_RESTART_POLICY },
      /whose restartPolicy is .*"maxRestarts":2.*, but this one's is .*"maxRestarts":5/,
    ],
    [
      'killGraceMs',
      { killGraceMs: 200 },
      { killGraceMs: 5_000 },
      /whose killGraceMs is 200, but this one's is 5000/,
    ],
    [
      'runDirectory',
      {},
      { runDirectory: join(run.path, 'other') },
      /whose runDirectory is "[^"]*tp-mcp-test-[^"]*", but this one's is "[^"]*other"/,
    ],
  ];
  for (const [field, firstOptions, secondOptions, message] of cases) {
    it(`refuses a second provider with another ${field} (CONFIG_INVALID naming both)`, async () => {
      const registry = createSharedRegistry();
      const tag = uniqueTag();
      const config = fixtureServer([`--tag=${tag}`], { shared: true });
      const first = createMcpProvider('shared', config, {
        registry,
        runDirectory: run.path,
        ...firstOptions,
      });
      try {
        await first.start?.(AbortSignal.timeout(30_000));
        const error = creationError(() =>
          createMcpProvider('shared', config, {
            registry,
            ...(field === 'runDirectory' ? {} : { runDirectory: run.path }),
            ...secondOptions,
          }),
        );
        expect(ToolError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
        expect(ToolError.isInstance(error) && error.details).toMatchObject({ server: 'shared', field });
        expect((error as Error).message).toMatch(message);
        expect((error as Error).message).toMatch(/one process runs under one setting/);
        // the refused provider took no reference, and the first one serves on
        expect(registry.references('shared', config)).toBe(1);
        expect((await first.execute('echo', { message: 'still' }, createToolContext())).ok).toBe(true);
        expect(pidsWithTag(tag)).toHaveLength(1);
      } finally {
        await first.close?.();
      }
      expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
    }, 60_000);
  }

  it('shares when the settings are the same, given or left to their defaults', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const config = fixtureServer([`--tag=${tag}`], { shared: true });
    const first = createMcpProvider('same', config, { registry, runDirectory: run.path });
    const second = createMcpProvider('same', config, {
      registry,
      runDirectory: `${run.path}/`,
      killGraceMs: 1000,
      restartPolicy: { ...DEFAULT_RESTART_POLICY },
    });
    try {
      await Promise.all([
        first.start?.(AbortSignal.timeout(30_000)),
        second.start?.(AbortSignal.timeout(30_000)),
      ]);
      expect(registry.references('same', config)).toBe(2);
      expect(first.status().pid).toBe(second.status().pid);
    } finally {
      await first.close?.();
      await second.close?.();
    }
  }, 60_000);

  it('lets the other settings run once the first provider is closed (a new process)', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const config = fixtureServer([`--tag=${tag}`], { shared: true });
    const first = createMcpProvider('later', config, { registry, runDirectory: run.path, killGraceMs: 200 });
    await first.start?.(AbortSignal.timeout(30_000));
    const firstPid = first.status().pid;
    await first.close?.();
    const second = createMcpProvider('later', config, {
      registry,
      runDirectory: run.path,
      killGraceMs: 5_000,
    });
    try {
      await second.start?.(AbortSignal.timeout(30_000));
      expect(second.status().pid).not.toBe(firstPid);
      expect((await second.execute('echo', { message: 'new' }, createToolContext())).ok).toBe(true);
    } finally {
      await second.close?.();
    }
  }, 60_000);

  it('does not compare the stdio-only settings of a remote server (they do nothing there)', async () => {
    const registry = createSharedRegistry();
    const config = { url: 'http://127.0.0.1:9/mcp', shared: true };
    const first = createMcpProvider('remote', config, { registry, runDirectory: run.path, killGraceMs: 200 });
    const second = createMcpProvider('remote', config, { registry, killGraceMs: 5_000 });
    expect(registry.references('remote', config)).toBe(2);
    const third = creationError(() =>
      createMcpProvider('remote', config, {
        registry,
        restartPolicy: { ...DEFAULT_RESTART_POLICY, maxRestarts: 1 },
      }),
    );
    expect(ToolError.isInstance(third) && third.code).toBe('CONFIG_INVALID');
    // a session factory of its own would have been dropped for the first provider's
    const fourth = creationError(() =>
      createMcpProvider('remote', config, {
        registry,
        sessionFactory: () => Promise.reject(new Error('not used')),
      }),
    );
    expect(ToolError.isInstance(fourth) && fourth.details).toMatchObject({ field: 'sessionFactory' });
    expect((fourth as Error).message).toMatch(
      /whose sessionFactory is \(none: the default\), but this one's is a function/,
    );
    expect(registry.references('remote', config)).toBe(2);
    await first.close?.();
    await second.close?.();
    expect(registry.size).toBe(0);
  });
});
