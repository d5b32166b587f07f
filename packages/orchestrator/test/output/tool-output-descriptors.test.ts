import { readdirSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, delay, testProvider, waitFor } from '../helpers.js';

// tool_output reads a stored output from disk; a read that stops early (a small limit, a slice
// that fills the answer, a cancel) must close its file: a long-running host reads millions.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** Open file descriptors of this process (Linux). */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** An orchestrator (closed after the test) holding one stored output of 50,000 lines, and its handle. */
async function storedOutput(): Promise<{ local: ToolsOrchestrator; handle: string }> {
  const local = createOrchestrator({ output: { maxBytes: 4096 } });
  orchestrator = local;
  const text = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${'a'.repeat(40)}`).join('\n');
  local.register(testProvider('p', { t: { spec: { sideEffect: 'none' }, run: () => ok(text) } }));
  const handle = (await local.call('p__t', {})).meta?.truncated?.handle as string;
  return { local, handle };
}

it.runIf(process.platform === 'linux')(
  'reads of a few lines of a stored output leave no file open',
  async () => {
    const { local, handle } = await storedOutput();
    expect(handle).toMatch(/^out_/);
    const before = openDescriptors();
    for (let i = 0; i < 30; i++) {
      const result = await local.call('tool_output', { handle, mode: 'lines', offset: 5 + i, limit: 3 });
      expect(codeOf(result)).toBe('OK');
    }
    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      const call = local.call(
        'tool_output',
        { handle, mode: 'lines', offset: 45_000, limit: 3 },
        { signal: controller.signal },
      );
      setImmediate(() => controller.abort());
      expect(['OK', 'CANCELLED']).toContain(codeOf(await call));
    }
    // closing a file is asynchronous: wait (bounded) for the count to come back
    await waitFor(() => openDescriptors() <= before + 2, 5000).catch(() => undefined);
    // a read that stops early closes its file: 40 reads must not leave 40 descriptors open
    expect(openDescriptors()).toBeLessThanOrEqual(before + 2);
  },
);

it.runIf(process.platform === 'linux')(
  'greps that stop at their match limit leave no file open in the warm workers',
  async () => {
    const { local, handle } = await storedOutput();
    // the workers start and are kept warm: count from there
    expect(codeOf(await local.call('tool_output', { handle, mode: 'grep', pattern: 'line 7$' }))).toBe('OK');
    await delay(300);
    const before = openDescriptors();
    for (let i = 0; i < 20; i++) {
      // every line matches: the grep stops at its 100th match, mid-file
      expect(codeOf(await local.call('tool_output', { handle, mode: 'grep', pattern: 'line' }))).toBe('OK');
    }
    await waitFor(() => openDescriptors() <= before + 2, 5000).catch(() => undefined);
    // the warm workers keep no descriptor of a grep once it answered
    expect(openDescriptors()).toBeLessThanOrEqual(before + 2);
  },
);
