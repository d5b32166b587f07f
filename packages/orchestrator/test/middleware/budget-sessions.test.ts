import { afterEach, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, thrownBy, testProvider } from '../helpers.js';

// A long-running host makes calls in session after session and may never call endSession():
// the context budget remembers a bounded number of sessions, like the operation trees (1,000)
// and the rate limiter (10,000), instead of one entry per session for the life of the process.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

it('the context budget keeps the sessions used most recently, up to maxSessions', async () => {
  const local = createOrchestrator({ contextBudget: { maxTokensPerSession: 1000, maxSessions: 100 } });
  orchestrator = local;
  local.register(testProvider('p', { t: { spec: { sideEffect: 'none' }, run: () => ok('x'.repeat(40)) } }));
  expect(codeOf(await local.call('p__t', {}, { session: { id: 'first' } }))).toBe('OK');
  expect(local.budgetUsed('first')).toBe(10);
  for (let i = 0; i < 150; i++) await local.call('p__t', {}, { session: { id: `s${i}` } });
  // the oldest session is forgotten: a million sessions must not keep a million entries
  expect(local.budgetUsed('first')).toBe(0);
  expect(local.budgetUsed('s149')).toBe(10);
  expect(local.budgetUsed('s50')).toBe(10);
  expect(local.budgetUsed('s49')).toBe(0);
  expect(
    thrownBy(() => createOrchestrator({ contextBudget: { maxTokensPerSession: 1, maxSessions: 0 } })).code,
  ).toBe('CONFIG_INVALID');
});

it('by default 10,000 sessions are kept', async () => {
  const local = createOrchestrator({ contextBudget: { maxTokensPerSession: 1000 } });
  orchestrator = local;
  local.register(testProvider('p', { t: { spec: { sideEffect: 'none' }, run: () => ok('x'.repeat(40)) } }));
  await local.call('p__t', {}, { session: { id: 'first' } });
  for (let i = 0; i < 10_000; i++) await local.call('p__t', {}, { session: { id: `s${i}` } });
  expect(local.budgetUsed('first')).toBe(0);
  expect(local.budgetUsed('s0')).toBe(10);
});
