import { afterEach, describe, expect, it } from 'vitest';
import type { Middleware, ToolResult } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, messageOf, testProvider } from '../helpers.js';

// Values thrown that cannot be read: an Error whose message getter throws, an object whose
// toJSON and toString throw, a Proxy whose every trap throws. Reading one to describe it throws
// again; that throw must not escape the step that settles the call.

let orchestrator: ToolsOrchestrator | undefined;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
afterEach(async () => {
  process.off('unhandledRejection', onUnhandled);
  await orchestrator?.close();
  orchestrator = undefined;
});

function unreadable(): Record<string, () => unknown> {
  const getterError = new Error('hidden');
  Object.defineProperty(getterError, 'message', {
    get() {
      throw new Error('message getter');
    },
  });
  const poisoned = {
    get message(): string {
      throw new Error('message getter');
    },
    toJSON(): never {
      throw new Error('toJSON');
    },
    toString(): never {
      throw new Error('toString');
    },
  };
  const trap = (): never => {
    throw new Error('trap');
  };
  const proxy = new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap, has: trap });
  return {
    'an Error whose message getter throws': () => getterError,
    'an object whose toString throws': () => poisoned,
    'a Proxy whose traps throw': () => proxy,
  };
}

/** Listens for unhandled rejections until the test ends. */
function watchUnhandled(): unknown[] {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
  return unhandled;
}

describe('a provider that throws a value that cannot be read', () => {
  it.each(Object.entries(unreadable()))(
    '%s: EXECUTION_FAILED at once (thrown or rejected), the slot freed, nothing unhandled',
    async (_what, value) => {
      const seen = watchUnhandled();
      const local = createOrchestrator({ timeoutMs: 5_000, maxConcurrency: 1 });
      orchestrator = local;
      local.register(
        testProvider('p', {
          throws: {
            spec: { sideEffect: 'mutating' },
            run: () => {
              throw value();
            },
          },
          rejects: { spec: { sideEffect: 'mutating' }, run: () => Promise.reject(value()) },
        }),
      );
      for (const tool of ['p__throws', 'p__rejects']) {
        const result = await local.call(tool, {});
        expect(codeOf(result)).toBe('EXECUTION_FAILED');
        expect(messageOf(result)).toMatch(
          /provider "p" failed p__\w+ with an? (Error|object) whose message cannot be read \(a getter or Proxy that throws\); this is a bug in the provider/,
        );
      }
      expect(local.stats()).toMatchObject({ inflight: 0, queues: { default: { running: 0, waiting: 0 } } });
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual([]);
    },
  );

  it.each<[string, unknown, RegExp]>([
    ['a string', 'disk on fire', /^disk on fire$/],
    [
      'undefined',
      undefined,
      /provider "p" failed p__throws with undefined instead of an Error; this is a bug in the provider/,
    ],
    ['null', null, /provider "p" failed p__throws with null instead of an Error/],
    ['an empty string', '', /provider "p" failed p__throws with an empty string instead of an Error/],
  ])('a provider that throws %s: EXECUTION_FAILED saying what it threw', async (_what, value, message) => {
    const local = createOrchestrator();
    orchestrator = local;
    local.register(
      testProvider('p', {
        throws: {
          spec: { sideEffect: 'mutating' },
          run: () => {
            throw value;
          },
        },
      }),
    );
    const result = await local.call('p__throws', {});
    expect(codeOf(result)).toBe('EXECUTION_FAILED');
    expect(messageOf(result)).toMatch(message);
  });
});

describe('middleware and hooks that throw a value that cannot be read', () => {
  it.each(Object.entries(unreadable()))(
    '%s from a middleware is INTERNAL naming it; from a hook, the call is denied',
    async (_what, value) => {
      const seen = watchUnhandled();
      const local = createOrchestrator({
        hooks: {
          preToolUse: ({ args }) => {
            if (args.deny) throw value();
            return undefined;
          },
        },
      });
      orchestrator = local;
      local.register(
        testProvider('p', { echo: { spec: { sideEffect: 'none' }, run: () => ({ ok: true, content: [] }) } }),
      );
      const broken: Middleware = {
        name: 'broken',
        phase: 'transform',
        handle: (call, next): Promise<ToolResult> => {
          if (call.args.explode) throw value();
          return next(call);
        },
      };
      local.use(broken);
      const denied = await local.call('p__echo', { deny: true });
      expect(codeOf(denied)).toBe('DENIED');
      const exploded = await local.call('p__echo', { explode: true });
      expect(codeOf(exploded)).toBe('INTERNAL');
      expect(messageOf(exploded)).toMatch(/middleware "broken" \(transform\) threw/);
      expect(codeOf(await local.call('p__echo', {}))).toBe('OK');
      expect(local.stats().inflight).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual([]);
    },
  );
});
