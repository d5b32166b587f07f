import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, delay, testProvider } from '../helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('stops during a retry back-off', () => {
  const down = () => fail('PROVIDER_UNAVAILABLE', 'upstream is down', { retryable: true });

  it('an abort during the back-off ends the call CANCELLED, not with the earlier failure', async () => {
    orchestrator = createOrchestrator({ retry: { maxAttempts: 3, baseDelayMs: 5_000, maxDelayMs: 5_000 } });
    let runs = 0;
    orchestrator.register(
      testProvider('t', {
        r: {
          spec: { sideEffect: 'none' },
          run: () => {
            runs++;
            return down();
          },
        },
      }),
    );
    await orchestrator.warmup();
    const controller = new AbortController();
    const pending = orchestrator.call('t__r', {}, { signal: controller.signal });
    for (let i = 0; i < 200 && runs === 0; i++) await delay(5);
    await delay(50); // the first attempt has failed: the call sleeps 2.5-5 s before the next
    controller.abort(new Error('user left'));
    const result = await pending;
    expect(codeOf(result)).toBe('CANCELLED');
    expect(runs).toBe(1);
  });

  it('a deadline during the back-off ends the call TIMEOUT', async () => {
    orchestrator = createOrchestrator({ retry: { maxAttempts: 3, baseDelayMs: 5_000, maxDelayMs: 5_000 } });
    orchestrator.register(testProvider('t', { r: { spec: { sideEffect: 'none' }, run: down } }));
    const result = await orchestrator.call('t__r', {}, { timeoutMs: 100 });
    expect(codeOf(result)).toBe('TIMEOUT');
  });
});
