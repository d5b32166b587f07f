import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { createOrchestrator } from '../../src/index.js';
import { testProvider } from '../helpers.js';

const parents: string[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true });
});

/** A per-run store directory that does not exist yet (the store creates it on first use). */
function storeDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'toolplane-close-store-'));
  parents.push(parent);
  return join(parent, 'outputs');
}

it('an output capped after close() is not stored: no file or directory is left behind', async () => {
  const dir = storeDir();
  const orchestrator = createOrchestrator({ output: { dir, maxBytes: 1024 } });
  orchestrator.register(
    testProvider('big', { text: { spec: { sideEffect: 'none' }, run: () => ok('y'.repeat(100_000)) } }),
  );
  // a scrubber that is still working on the answer when the orchestrator closes
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let answered = (): void => {};
  const gotAnswer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  orchestrator.use({
    name: 'slow-scrub',
    phase: 'transform',
    async handle(call, next) {
      const result = await next(call);
      answered();
      await held;
      return result;
    },
  });
  // outside the size cap: its next() settles once the size cap is done with the late answer
  let capped: Promise<unknown> = Promise.resolve();
  orchestrator.use({
    name: 'outer',
    phase: 'observe',
    handle(call, next) {
      const pending = next(call);
      capped = pending;
      return pending;
    },
  });
  const call = orchestrator.call('big__text', {});
  await gotAnswer;
  await orchestrator.close();
  const result = await call;
  expect(result.ok ? 'ok' : result.error.code).toBe('CANCELLED');
  expect(existsSync(dir)).toBe(false);
  release();
  // the outer middleware is told how the call ended; the size cap below it has finished by now
  await capped;
  // the size cap must not make the directory again and leave the 100 KB output in it for good
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  expect(existsSync(dir)).toBe(false);
});

it('close() during a store write waits for it and removes the file with the directory', async () => {
  const dir = storeDir();
  const orchestrator = createOrchestrator({ output: { dir, maxBytes: 1024 } });
  // 50 MB: the write is still going when close() starts
  orchestrator.register(
    testProvider('big', {
      text: { spec: { sideEffect: 'none' }, run: () => ok('z'.repeat(50 * 1024 * 1024)) },
    }),
  );
  let capping = (): void => {};
  const reachedCap = new Promise<void>((resolve) => {
    capping = resolve;
  });
  orchestrator.use({
    name: 'mark',
    phase: 'transform',
    async handle(call, next) {
      const result = await next(call);
      capping();
      return result;
    },
  });
  const call = orchestrator.call('big__text', {});
  await reachedCap;
  await orchestrator.close();
  const result = await call;
  // the call ended one way or the other, and nothing of it is on disk
  expect(typeof result.ok).toBe('boolean');
  expect(existsSync(dir)).toBe(false);
});
