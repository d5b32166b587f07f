import { expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { createOrchestrator } from '../src/index.js';
import { testProvider } from './helpers.js';

it('a call after close() is refused as not worth retrying, saying to create a new orchestrator', async () => {
  const local = createOrchestrator();
  local.register(testProvider('p', { echo: { spec: { sideEffect: 'none' }, run: () => ok('hi') } }));
  expect((await local.call('p__echo', {})).ok).toBe(true);
  await local.close();
  const result = await local.call('p__echo', {});
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe('PROVIDER_UNAVAILABLE');
  // not retryable (unlike PROVIDER_UNAVAILABLE's default): an agent loop would retry it forever
  expect(result.error.retryable).toBe(false);
  expect(result.error.message).toMatch(/create a new one/);
  // a second close() is harmless and the answer stays the same
  await local.close();
  const again = await local.call('p__echo', {});
  expect(again.ok ? undefined : again.error.retryable).toBe(false);
});
