import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@toolplane/core';
import { type ToolsOrchestrator, createOrchestrator } from '../../src/index.js';
import { codeOf, echo, testProvider, thrownBy } from '../helpers.js';

// Session ids a call or a view carries that are no session id: refused with INVALID_ARGUMENTS,
// nothing run and nothing kept for them.

let orchestrator: ToolsOrchestrator | undefined;
afterEach(async () => {
  await orchestrator?.close();
  orchestrator = undefined;
});

describe('session ids that are no session id', () => {
  it.each<[string, unknown, string]>([
    ['empty', '', 'got an empty string'],
    ['a number', 42, 'got number'],
    ['null', null, 'got null'],
    ['an object', { id: 's' }, 'got object'],
    ['a huge string', 's'.repeat(100_000), 'got 100000 characters'],
  ])('an id that is %s is INVALID_ARGUMENTS and runs nothing', async (_what, id, got) => {
    orchestrator = createOrchestrator();
    let runs = 0;
    orchestrator.register(
      testProvider('t', {
        count: {
          run: () => {
            runs++;
            return ok('ran');
          },
        },
      }),
    );
    const result = await orchestrator.call('t__count', {}, { session: { id: id as string } });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain(
      'session.id of a call to t__count must be a non-empty string of at most 256 characters',
    );
    expect(message).toContain(got);
    expect(message.length).toBeLessThan(500);
    expect(runs).toBe(0);
    // nothing was kept for it: no operation tree, and the call is recorded but not as a session of its own
    expect(orchestrator.operationTree(String(id))).toBeUndefined();
    expect(orchestrator.stats().inflight).toBe(0);
  });

  it('a session id of 256 characters is fine, and so is none at all (the "default" session)', async () => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const long = 's'.repeat(256);
    expect((await orchestrator.call('t__echo', {}, { session: { id: long } })).ok).toBe(true);
    expect(orchestrator.operationTree(long)).toBeDefined();
    expect((await orchestrator.call('t__echo', {})).ok).toBe(true);
    expect((await orchestrator.call('t__echo', {}, { session: {} })).ok).toBe(true);
    expect(orchestrator.operationTree('default')?.children).toHaveLength(2);
  });

  it.each<[string, unknown, string]>([
    ['a string session', 'run-1', 'session of a call to t__echo must be an object'],
    [
      'a depth of -1',
      { id: 's', depth: -1 },
      'session.depth of a call to t__echo must be a whole number of 0 or more; got -1',
    ],
    ['a depth of NaN', { id: 's', depth: Number.NaN }, 'must be a whole number of 0 or more; got NaN'],
    ['a depth of "0"', { id: 's', depth: '0' }, 'must be a whole number of 0 or more; got "0"'],
    [
      'a parentId of 7',
      { id: 's', parentId: 7 },
      'session.parentId of a call to t__echo must be a non-empty string',
    ],
  ])('%s is INVALID_ARGUMENTS', async (_what, session, text) => {
    orchestrator = createOrchestrator();
    orchestrator.register(testProvider('t', { echo }));
    const result = await orchestrator.call('t__echo', {}, { session: session as { id: string } });
    expect(codeOf(result)).toBe('INVALID_ARGUMENTS');
    expect(result.ok ? '' : result.error.message).toContain(text);
  });

  it('listTools(view) refuses a view whose session id is no session id', async () => {
    orchestrator = createOrchestrator();
    const seen: unknown[] = [];
    orchestrator.use({
      name: 'watch',
      phase: 'gate',
      filterTools: (tools, view) => {
        seen.push(view.session.id);
        return tools;
      },
    });
    await orchestrator.warmup();
    for (const id of ['', 42]) {
      const error = thrownBy(() => orchestrator?.listTools({ session: { id: id as string, depth: 0 } }));
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.message).toContain('session.id of listTools(view) must be a non-empty string');
    }
    expect(seen).toEqual([]);
    expect(orchestrator.listTools({ session: { id: 'fine', depth: 0 } }).length).toBeGreaterThan(0);
    expect(seen).toEqual(['fine']);
  });
});
