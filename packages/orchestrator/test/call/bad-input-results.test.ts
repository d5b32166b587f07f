import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDER_SPEC_VERSION, type ToolProvider, type ToolResult } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, messageOf } from '../helpers.js';

// Provider answers that cannot be read (a Proxy, a throwing `then`) or that JSON cannot carry
// (a cycle or a BigInt inside a content block), from a provider that answers synchronously.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

function trap(): never {
  throw new Error('trap');
}

/** A provider (not async: its answers are handed over as they are) of one tool per answer. */
function answering(answers: Record<string, () => unknown>): ToolProvider {
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'local',
    namespace: 'p',
    listTools: () =>
      Object.keys(answers).map((name) => ({
        name,
        description: name,
        inputSchema: { type: 'object' as const },
      })),
    execute: (name) => answers[name]?.() as Promise<ToolResult>,
  };
}

describe('a provider answer that cannot be read', () => {
  it.each<[string, () => unknown, string, RegExp]>([
    [
      'a Proxy whose traps throw',
      () => new Proxy({}, { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap }),
      'INVALID_RESULT',
      /returned an invalid result for p__answer \(it cannot be read: trap\)/,
    ],
    [
      'a Proxy that is no thenable but throws on every other read',
      () =>
        new Proxy(
          {},
          { get: (_target, key) => (key === 'then' ? undefined : trap()), has: trap, ownKeys: trap },
        ),
      'INVALID_RESULT',
      /returned an invalid result for p__answer \(it cannot be read: trap\)/,
    ],
    [
      'a thenable whose then throws',
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile answer under test
        then: trap,
      }),
      'EXECUTION_FAILED',
      /^trap$/,
    ],
  ])('%s fails the call and frees its queue slot', async (_what, answer, code, message) => {
    const local = createOrchestrator({ maxConcurrency: 1, timeoutMs: 5_000 });
    orchestrator = local;
    local.register(answering({ answer, fine: () => ({ ok: true, content: [] }) }));
    const result = await local.call('p__answer', {});
    expect(codeOf(result)).toBe(code);
    expect(messageOf(result)).toMatch(message);
    expect(local.stats().queues.default).toMatchObject({ running: 0, waiting: 0 });
    expect(codeOf(await local.call('p__fine', {}))).toBe('OK');
  });
});

describe('a thenable answer that settles more than once', () => {
  it('the first settlement is the answer: one result, one event, one record', async () => {
    const local = createOrchestrator();
    orchestrator = local;
    const finished: string[] = [];
    local.on('tool_finished', (event) => finished.push(event.ok ? 'OK' : String(event.error?.code)));
    local.register(
      answering({
        answer: () => ({
          // biome-ignore lint/suspicious/noThenProperty: the hostile answer under test
          then(resolve: (value: unknown) => void, reject: (error: unknown) => void) {
            resolve({ ok: true, content: [{ type: 'text', text: 'first' }] });
            resolve({ ok: true, content: [{ type: 'text', text: 'second' }] });
            reject(new Error('late'));
          },
        }),
      }),
    );
    const result = await local.call('p__answer', {});
    expect(result.ok && result.content[0]?.type === 'text' && result.content[0].text).toBe('first');
    expect(finished).toEqual(['OK']);
    expect(local.accounting().totals.p__answer).toMatchObject({ calls: 1, errors: 0 });
  });
});

describe('a content block JSON cannot carry', () => {
  it.each<[string, () => Record<string, unknown>, RegExp]>([
    [
      'a cycle in its annotations',
      () => {
        const block: Record<string, unknown> = { type: 'text', text: 'hi' };
        block.annotations = { back: block };
        return block;
      },
      /content\[0\]\.annotations is not JSON data: Converting circular structure to JSON/,
    ],
    [
      'a BigInt in its _meta',
      () => ({ type: 'text', text: 'hi', _meta: { size: 10n } }),
      /content\[0\]\._meta is not JSON data: Do not know how to serialize a BigInt/,
    ],
  ])('%s is INVALID_RESULT', async (_what, block, message) => {
    const local = createOrchestrator();
    orchestrator = local;
    local.register(
      answering({
        answer: () => ({ ok: true, content: [block()] }),
        failing: () => ({
          ok: false,
          error: { code: 'EXECUTION_FAILED', message: 'no' },
          content: [block()],
        }),
        annotated: () => ({
          ok: true,
          content: [{ type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 } }],
        }),
      }),
    );
    for (const tool of ['p__answer', 'p__failing']) {
      const result = await local.call(tool, {});
      expect(codeOf(result)).toBe('INVALID_RESULT');
      expect(messageOf(result)).toMatch(message);
      expect(() => JSON.stringify(result)).not.toThrow();
    }
    const fine = await local.call('p__annotated', {});
    expect(codeOf(fine)).toBe('OK');
    expect(JSON.parse(JSON.stringify(fine)).content[0].annotations).toEqual({
      audience: ['user'],
      priority: 0.5,
    });
  });
});
