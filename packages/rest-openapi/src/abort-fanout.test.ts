import { describe, expect, it } from 'vitest';
import { onAbort } from './abort-fanout.js';

describe('onAbort', () => {
  it('shares one listener per signal, calls the registered callbacks once, and forgets cancelled ones', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    const cancels = Array.from({ length: 50 }, (_, i) =>
      onAbort(controller.signal, () => calls.push(`c${i}`)),
    );
    for (const cancel of cancels.slice(0, 48)) cancel();
    controller.abort();
    controller.abort();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
    process.off('warning', onWarning);
    expect(calls).toEqual(['c48', 'c49']);
    expect(warnings).toEqual([]);
  });
});
