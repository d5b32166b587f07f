import { extendContext, ok, fail } from '@toolplane/core';
import { expect, it } from 'vitest';
import { createCallContext } from '../../src/call/call-context.js';
import { CallState } from '../../src/call/call-state.js';
import type { ToolRoute } from '../../src/registry/registry.js';
import { SessionTrees } from '../../src/observe/session-trees.js';

it('keeps calls as records until the tree is read, then keeps the tree live', () => {
  const trees = new SessionTrees({ maxNodesPerSession: 4 });
  const first = trees.begin('s', 'c1', 'a__one', 10);
  first.end(ok('fine'), 15);
  const second = trees.begin('s', 'c2', 'a__two', 20);
  const tree = trees.get('s');
  expect(tree?.children.map((node) => [node.name, node.status, node.endedAt])).toEqual([
    ['a__one', 'ok', 15],
    ['a__two', undefined, undefined],
  ]);
  // a call that ends after the read updates the node the reader holds
  second.end(fail('DENIED', 'no'), 30);
  expect(tree?.children[1]).toMatchObject({ status: 'error', endedAt: 30, attributes: { code: 'DENIED' } });
  // later calls join the live tree, bounded (the older half goes)
  for (let i = 3; i <= 6; i++) trees.begin('s', `c${i}`, 'a__more', i * 10).end(ok(''), i * 10 + 1);
  expect(trees.get('s')).toBe(tree);
  expect(tree?.children.map((node) => node.id)).toEqual(['c3', 'c4', 'c5', 'c6']);
  expect(trees.get('other')).toBeUndefined();
});

it('bounds the records of a session nobody reads', () => {
  const trees = new SessionTrees({ maxNodesPerSession: 10 });
  for (let i = 0; i < 25; i++) trees.begin('s', `c${i}`, 't', i);
  const ids = trees.get('s')?.children.map((node) => node.id) ?? [];
  expect(ids.length).toBeLessThanOrEqual(10);
  expect(ids.at(-1)).toBe('c24');
});

it('gives ctx.op on first look, attaches children to the node the tree shows, and lets a copy override it', () => {
  const trees = new SessionTrees();
  const state = new CallState({} as ToolRoute, 'c1', 0);
  state.opRecord = trees.begin('s', 'c1', 'agent__child', 1);
  const ctx = createCallContext(
    state,
    'c1',
    {
      principal: {},
      session: { id: 's', depth: 0 },
      trace: { originId: 's', callPath: [] },
      services: {},
      progress: () => {},
    },
    1000,
  );
  const op = ctx.op;
  expect(ctx.op).toBe(op);
  const childTree = new SessionTrees();
  childTree.begin('child', 'c2', 'agent__leaf', 2);
  op?.attach(childTree.get('child') as never);
  const node = trees.get('s')?.children[0];
  expect(node?.children[0]?.children[0]?.name).toBe('agent__leaf');
  const replaced = { node: node as never, attach: () => {} };
  expect(extendContext(ctx, { op: replaced }).op).toBe(replaced);
  expect(ctx.op).toBe(op);
  // a middleware that gives the call its own signal keeps the call's node
  const withSignal = extendContext(ctx, { signal: new AbortController().signal });
  expect(withSignal.op).toBe(op);
});
