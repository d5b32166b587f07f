import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../src/index.js';
import { eventLog, fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
const cache = tempDirectory();
afterAll(() => {
  run.remove();
  cache.remove();
});

describe('lazy servers', () => {
  const tag = uniqueTag();
  const config = fixtureServer([`--tag=${tag}`], { lazy: true, idleTimeoutMs: 300 });
  const options = { runDirectory: run.path, toolCacheDirectory: cache.path };

  it('lists once to fill the cache, then stops when idle', async () => {
    const provider = createMcpProvider('lazy', config, options);
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).some((spec) => spec.name === 'echo')).toBe(true);
      expect(readdirSync(cache.path)).toHaveLength(1);
      expect(
        await waitFor(() => provider.status().state === 'idle' && pidsWithTag(tag).length === 0, 15_000),
      ).toBe(true);
    } finally {
      await provider.close?.();
    }
  });

  it('lists cached tools without starting, starts on the first call, stops again when idle', async () => {
    const provider = createMcpProvider('lazy', config, options);
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect(pidsWithTag(tag)).toHaveLength(0);
      const echo = (await provider.listTools()).find((spec) => spec.name === 'echo');
      expect(echo?.meta?.definitionHash).toMatch(/^[0-9a-f]{64}$/);
      expect(echo?.meta?.definitionChanged).toBeUndefined();
      const result = await provider.execute('echo', { message: 'woke up' }, createToolContext());
      expect(result.ok).toBe(true);
      expect(provider.status().state).toBe('ready');
      expect(
        await waitFor(() => provider.status().state === 'idle' && pidsWithTag(tag).length === 0, 15_000),
      ).toBe(true);
    } finally {
      await provider.close?.();
    }
  });

  it('flags a tool whose definition differs from the cached one', async () => {
    const file = join(cache.path, readdirSync(cache.path)[0] as string);
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    for (const tool of cached.tools) {
      if (tool.definition.name === 'echo') {
        tool.definition.description = 'Approved long ago.';
        tool.hash = 'f'.repeat(64);
      }
    }
    writeFileSync(file, JSON.stringify(cached));
    const log = eventLog();
    const provider = createMcpProvider('lazy', config, { ...options, onEvent: log.onEvent });
    try {
      await provider.start?.(AbortSignal.timeout(30_000));
      expect((await provider.listTools()).find((spec) => spec.name === 'echo')?.description).toBe(
        'Approved long ago.',
      );
      let changed = 0;
      provider.onToolsChanged?.(() => changed++);
      await provider.execute('echo', { message: 'x' }, createToolContext());
      expect(await waitFor(() => changed > 0, 15_000)).toBe(true);
      const specs = await provider.listTools();
      expect(specs.find((spec) => spec.name === 'echo')?.meta?.definitionChanged).toBe(true);
      expect(specs.find((spec) => spec.name === 'add')?.meta?.definitionChanged).toBeUndefined();
      expect(log.events).toContainEqual({ type: 'definition-changed', server: 'lazy', tool: 'echo' });
    } finally {
      await provider.close?.();
    }
    expect(await waitFor(() => pidsWithTag(tag).length === 0)).toBe(true);
  });
});
