import { getEventListeners } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { createLocalProvider } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, messageOf, type Children, relay, slowStarting, waitFor } from '../helpers.js';

// The first call to a provider waits for its start (an MCP server spawning, installing itself):
// up to startTimeoutMs (120 s by default). That wait is an await point like any other: the
// caller's signal, the call's timeout and cancel(callId) end the call there, at once.

let orchestrator: ToolsOrchestrator | undefined;
let releaseStart: () => void = () => {};
afterEach(async () => {
  releaseStart();
  await orchestrator?.close();
  orchestrator = undefined;
});

/** An orchestrator whose only provider is starting (held by a real child process until released). */
async function starting(): Promise<{ local: ToolsOrchestrator; children: Children; started: () => boolean }> {
  const local = createOrchestrator({ startTimeoutMs: 60_000 });
  orchestrator = local;
  const children: Children = new Map();
  const slow = slowStarting(createLocalProvider({ namespace: 'p', tools: [relay(children)] }));
  releaseStart = slow.releaseStart;
  local.register(slow.provider);
  const warming = local.warmup();
  let done = false;
  void warming.then(() => {
    done = true;
  });
  await waitFor(() => local.providers().some((provider) => provider.state === 'starting'));
  return { local, children, started: () => done };
}

it('a caller that aborts while the provider starts gets CANCELLED at once, not after the start', async () => {
  const { local, children, started } = await starting();
  const controller = new AbortController();
  const call = local.call('p__relay', { key: 'a' }, { signal: controller.signal });
  controller.abort();
  const result = await call;
  // the call does not wait for the start to end (up to startTimeoutMs) to run or fail
  expect(started()).toBe(false);
  expect(codeOf(result)).toBe('CANCELLED');
  expect(children.size).toBe(0);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  // nothing of it is left waiting: the start goes on and later calls run
  releaseStart();
  await waitFor(started);
  const later = local.call('p__relay', { key: 'b' });
  await waitFor(() => children.has('b'));
  children.get('b')?.stdin?.write('ran\n');
  expect(codeOf(await later)).toBe('OK');
  expect(local.stats().inflight).toBe(0);
});

it('a call whose timeout passes while the provider starts ends TIMEOUT, saying the provider was starting', async () => {
  const { local, started } = await starting();
  const result = await local.call('p__relay', { key: 'a' }, { timeoutMs: 100 });
  expect(started()).toBe(false);
  expect(codeOf(result)).toBe('TIMEOUT');
  expect(messageOf(result)).toMatch(/still starting/);
  expect(local.accounting().records.map((record) => record.code)).toEqual(['TIMEOUT']);
});

it('cancel(callId) ends a call waiting for the start at once', async () => {
  const { local, started } = await starting();
  const call = local.call('p__relay', { key: 'a' }, { callId: 'w-1' });
  expect(local.cancel('w-1', 'changed my mind')).toBe(true);
  const result = await call;
  expect(started()).toBe(false);
  expect(codeOf(result)).toBe('CANCELLED');
  expect(messageOf(result)).toContain('changed my mind');
  expect(local.cancel('w-1')).toBe(false);
});

it('many calls waiting on one signal share one listener, removed when they end', async () => {
  const { local, children, started } = await starting();
  const controller = new AbortController();
  const calls = Array.from({ length: 20 }, (_, i) =>
    local.call('p__relay', { key: `k${i}` }, { signal: controller.signal, timeoutMs: 60_000 }),
  );
  expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
  releaseStart();
  await waitFor(started);
  await waitFor(() => children.size === 20, 30_000);
  for (const child of children.values()) child.stdin?.write('ran\n');
  const results = await Promise.all(calls);
  expect(results.map(codeOf)).toEqual(Array.from({ length: 20 }, () => 'OK'));
  expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
});
