import { afterEach, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { messageOf, testProvider } from '../helpers.js';

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

it('arguments a middleware broke after validation are refused naming how many issues there are in all', async () => {
  const local = createOrchestrator();
  orchestrator = local;
  local.register(
    testProvider('p', {
      list: {
        spec: {
          sideEffect: 'none',
          inputSchema: {
            type: 'object',
            properties: { items: { type: 'array', items: { type: 'string' } } },
          },
        },
        run: () => ok('ran'),
      },
    }),
  );
  // a transform middleware (after validation) that turns 5,000 strings into numbers
  local.use({
    name: 'breaks-args',
    phase: 'transform',
    handle: (call, next) => next({ ...call, args: { items: Array.from({ length: 5000 }, (_, i) => i) } }),
  });
  const result = await local.call('p__list', { items: ['a'] });
  expect(result.ok).toBe(false);
  // every issue is counted, not only the 1,000 that core describes
  expect(messageOf(result)).toContain('and 4995 more');
});
