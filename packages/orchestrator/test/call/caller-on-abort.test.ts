import { afterEach, expect, it } from 'vitest';
import { type ToolContext, ToolError, ok, onAbort } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, testProvider, waitFor } from '../helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

/** A caller's cancellation as a plain listener list: what the MCP gateway hands to `call`. */
function callerCancel(): {
  options: { onAbort(listener: (reason: unknown) => void): () => void };
  abort(reason?: unknown): void;
  listening(): number;
} {
  const listeners = new Set<(reason: unknown) => void>();
  let aborted: { reason: unknown } | undefined;
  return {
    options: {
      onAbort(listener) {
        if (aborted) {
          listener(aborted.reason);
          return () => {};
        }
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    abort(reason) {
      aborted = { reason };
      for (const listener of [...listeners]) listener(reason);
      listeners.clear();
    },
    listening: () => listeners.size,
  };
}

function waitingTool(started: string[]): ReturnType<typeof testProvider> {
  return testProvider('p', {
    wait: {
      spec: { sideEffect: 'none' },
      run: (_args, ctx: ToolContext) =>
        new Promise((resolve) => {
          started.push('wait');
          onAbort(ctx, () => resolve(ok('stopped')));
        }),
    },
    quick: { spec: { sideEffect: 'none' }, run: async () => ok('done') },
  });
}

it("a caller's onAbort cancels the call while it runs, with the reason in its message", async () => {
  const local = createOrchestrator();
  orchestrator = local;
  const started: string[] = [];
  local.register(waitingTool(started));
  const caller = callerCancel();
  const call = local.call('p__wait', {}, caller.options);
  await waitFor(() => started.length === 1);
  expect(caller.listening()).toBe(1);
  caller.abort('the client went away');
  const result = await call;
  expect(codeOf(result)).toBe('CANCELLED');
  expect(result.ok ? '' : result.error.message).toBe('the call was cancelled: the client went away');
  expect(local.accounting().records.at(-1)?.code).toBe('CANCELLED');
});

it("a caller's onAbort that was aborted before the call starts nothing, and a ToolError reason is kept", async () => {
  const local = createOrchestrator();
  orchestrator = local;
  const started: string[] = [];
  local.register(waitingTool(started));
  const caller = callerCancel();
  caller.abort(new ToolError('CANCELLED', 'stopped by the user'));
  const result = await local.call('p__wait', {}, caller.options);
  expect(result.ok ? '' : result.error.message).toBe('stopped by the user');
  expect(started).toEqual([]);
});

it("a finished call removes its listener from the caller's onAbort", async () => {
  const local = createOrchestrator();
  orchestrator = local;
  local.register(waitingTool([]));
  const caller = callerCancel();
  for (let i = 0; i < 3; i++) expect((await local.call('p__quick', {}, caller.options)).ok).toBe(true);
  expect(caller.listening()).toBe(0);
});

it('an onAbort that is not a function is refused with CONFIG_INVALID', async () => {
  const local = createOrchestrator();
  orchestrator = local;
  local.register(waitingTool([]));
  const result = await local.call('p__quick', {}, { onAbort: 'no' as never });
  expect(codeOf(result)).toBe('CONFIG_INVALID');
});
