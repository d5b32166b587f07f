// close() of one provider of a shared server while another still holds it: the server goes on
// for the other, but what the closed provider was waiting on (its start, its calls in flight)
// must end at once, as it does for a provider of its own.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError, createToolContext } from '@toolplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpProvider, createSharedRegistry } from '../src/index.js';
import { fixtureServer, pidsWithTag, tempDirectory, uniqueTag, waitFor } from './helpers/index.js';

const run = tempDirectory();
afterAll(() => run.remove());

const settle = <T>(promise: Promise<T> | undefined): Promise<unknown> =>
  (promise ?? Promise.resolve()).then(
    (value) => value,
    (error: unknown) => error,
  );

describe('closing one provider of a shared server', () => {
  it('ends its start in progress with PROVIDER_UNAVAILABLE while the start goes on for the other', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const gate = join(run.path, `gate-${tag}`);
    // the startup timeout is far longer than the test waits: only an early end passes
    const config = fixtureServer([`--tag=${tag}`, `--wait-for=${gate}`], {
      shared: true,
      startupTimeoutMs: 120_000,
    });
    const first = createMcpProvider('sharedclose', config, { registry, runDirectory: run.path });
    const second = createMcpProvider('sharedclose', config, { registry, runDirectory: run.path });
    try {
      const firstStart = settle(first.start?.(AbortSignal.timeout(120_000)));
      const secondStart = settle(second.start?.(AbortSignal.timeout(120_000)));
      expect(await waitFor(() => pidsWithTag(tag).length === 1, 20_000)).toBe(true);
      await first.close?.();
      const outcome = await Promise.race([
        firstStart,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000)),
      ]);
      expect(ToolError.isInstance(outcome) && outcome.code).toBe('PROVIDER_UNAVAILABLE');
      expect((outcome as Error).message).toMatch(/closed/);
      writeFileSync(gate, '');
      expect(await secondStart).toBeUndefined();
      expect((await second.execute('echo', { message: 'on' }, createToolContext())).ok).toBe(true);
    } finally {
      await first.close?.();
      await second.close?.();
      rmSync(gate, { force: true });
    }
  }, 60_000);

  it('fails its calls in flight with PROVIDER_UNAVAILABLE, and the other provider serves on', async () => {
    const registry = createSharedRegistry();
    const tag = uniqueTag();
    const config = fixtureServer([`--tag=${tag}`], { shared: true, requestTimeoutMs: 120_000 });
    const first = createMcpProvider('sharedcall', config, { registry, runDirectory: run.path });
    const second = createMcpProvider('sharedcall', config, { registry, runDirectory: run.path });
    try {
      await first.start?.(AbortSignal.timeout(30_000));
      await second.start?.(AbortSignal.timeout(30_000));
      const hanging = first.execute('hang', {}, createToolContext());
      await new Promise((resolve) => setTimeout(resolve, 100));
      await first.close?.();
      const outcome = await Promise.race([
        hanging,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000)),
      ]);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
      expect((outcome as { error: Error }).error.message).toMatch(/closed/);
      // the server heard the cancel: the hang is not left running for nobody
      const heard = async (): Promise<string> => {
        const result = await second.execute('hang_cancellations', {}, createToolContext());
        return result.ok && result.content[0]?.type === 'text' ? result.content[0].text : '';
      };
      let cancellations = '';
      for (let i = 0; i < 50 && cancellations !== '1'; i++) {
        cancellations = await heard();
        if (cancellations !== '1') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(cancellations).toBe('1');
      expect(pidsWithTag(tag)).toHaveLength(1);
    } finally {
      await first.close?.();
      await second.close?.();
    }
  }, 60_000);
});
