import { PROVIDER_SPEC_VERSION, type ToolProvider, type ToolResult, ok } from '@toolplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NestedCalls } from '../src/runtime/tenant-runtime.js';
import { type TestServer, grant, makeKey, startTestServer, storages } from './helpers/test-server.js';

/**
 * `flow__plan` calls `flow__step` twice (the second with `deeper`, which makes it call
 * `flow__leaf`), through `ctx.services.calls`, as a tool that runs other tools does.
 */
const flowProvider: ToolProvider = {
  specificationVersion: PROVIDER_SPEC_VERSION,
  kind: 'internal',
  namespace: 'flow',
  listTools: () =>
    ['plan', 'step', 'leaf'].map((name) => ({
      name,
      description: `The ${name} of a flow`,
      inputSchema: { type: 'object', properties: { deeper: { type: 'boolean' } } },
      sideEffect: 'none' as const,
    })),
  async execute(name, args, ctx): Promise<ToolResult> {
    const calls = ctx.services.calls as NestedCalls;
    if (name === 'plan') {
      const first = await calls.callFrom(ctx, 'flow__step', {});
      const second = await calls.callFrom(ctx, 'flow__step', { deeper: true });
      return ok(`plan: ${first.ok} ${second.ok}`);
    }
    if (name === 'step' && args.deeper === true) {
      const leaf = await calls.callFrom(ctx, 'flow__leaf', {});
      return ok(`step: ${leaf.ok}`);
    }
    return ok(name);
  },
};

interface TreeNode {
  callId: string;
  parentId: string | null;
  originId: string;
  tool: string;
  ok: boolean;
  principalKind: string;
  principalId: string;
  children: TreeNode[];
}

/** Polls `read` every 50 ms, at most 100 times, until `done` holds; answers the last value. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 100 && !done(value); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

const shape = (node: TreeNode): unknown => [node.tool, node.children.map(shape)];

describe.each(storages())('call records and operation trees on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({ storage: kind, providers: [flowProvider], rateLimitPerMinute: 0 });
    agentKey = await makeKey(t, t.adminKey, 'agent', 'planner');
    await grant(t, 'agent', 'planner', ['flow__*'], ['flow__leaf']);
  });
  afterAll(async () => {
    await t?.close();
  });

  const callPlan = async (key: string): Promise<string> => {
    const answer = await t.api('POST', '/v1/tools/flow__plan/call', { key, body: { arguments: {} } });
    expect(answer.status).toBe(200);
    return answer.body.result.meta.callId as string;
  };
  const treeOf = (callId: string, key = t.adminKey) =>
    t.api('GET', `/v1/accounting/calls/${callId}/tree`, { key });

  it.skipIf(skip)("answers a call's operation tree: the calls it made, nested by parent", async () => {
    const callId = await callPlan(t.adminKey);
    const answer = await eventually(
      () => treeOf(callId),
      (tree) =>
        tree.status === 200 &&
        tree.body.tree.children.length === 2 &&
        tree.body.tree.children[1].children.length === 1,
    );
    expect(answer.status).toBe(200);
    const tree = answer.body.tree as TreeNode;
    expect(shape(tree)).toEqual([
      'flow__plan',
      [
        ['flow__step', []],
        ['flow__step', [['flow__leaf', []]]],
      ],
    ]);
    expect([tree.callId, tree.parentId, tree.originId]).toEqual([callId, null, callId]);
    const [first, second] = tree.children as [TreeNode, TreeNode];
    expect([first.parentId, second.parentId, second.children[0]?.parentId]).toEqual([
      callId,
      callId,
      second.callId,
    ]);
    expect(new Set([first, second, second.children[0]].map((node) => node?.originId))).toEqual(
      new Set([callId]),
    );
    // a subtree is answered from its own root
    const sub = await treeOf(second.callId);
    expect(shape(sub.body.tree)).toEqual(['flow__step', [['flow__leaf', []]]]);
    expect(answer.body.truncated).toBe(false);
  });

  it.skipIf(skip)(
    'books nested calls the grant gate refused, under the principal that made them',
    async () => {
      const callId = await callPlan(agentKey);
      const answer = await eventually(
        () => treeOf(callId),
        (tree) => tree.status === 200 && tree.body.tree.children[1]?.children.length === 1,
      );
      const leaf = answer.body.tree.children[1].children[0] as TreeNode & { code: string };
      expect([leaf.tool, leaf.ok, leaf.code, leaf.principalKind, leaf.principalId]).toEqual([
        'flow__leaf',
        false,
        'DENIED',
        'agent',
        'planner',
      ]);
    },
  );

  it.skipIf(skip)("shows no call of one tenant to another tenant's admin: 404 not_found", async () => {
    const callId = await callPlan(t.adminKey);
    await eventually(
      () => treeOf(callId),
      (tree) => tree.status === 200,
    );
    const tenant = await t.api('POST', '/v1/tenants', { key: t.adminKey, body: { id: `other-${kind}` } });
    const other = tenant.body.key as string;
    const answer = await treeOf(callId, other);
    expect([answer.status, answer.body.error.reason]).toEqual([404, 'not_found']);
    const recent = await t.api('GET', '/v1/accounting/calls', { key: other });
    expect(recent.body.calls).toEqual([]);
  });

  it.skipIf(skip)(
    'lists recent calls made by clients, newest first, without the calls tools made',
    async () => {
      const first = await callPlan(t.adminKey);
      const second = await callPlan(t.adminKey);
      const recent = await eventually(
        () => t.api('GET', '/v1/accounting/calls?limit=2', { key: t.adminKey }),
        (answer) => answer.body.calls?.[0]?.callId === second,
      );
      expect(recent.body.calls.map((call: TreeNode) => call.callId)).toEqual([second, first]);
      expect(recent.body.calls.every((call: TreeNode) => call.parentId === null)).toBe(true);
    },
  );

  it.skipIf(skip)(
    'loses no booked call on a graceful shutdown: every call is there after a restart',
    async () => {
      const key = await makeKey(t, t.adminKey, 'admin', 'burst');
      const ids = await Promise.all(Array.from({ length: 25 }, () => callPlan(key)));
      // closed at once: the records still buffered are written before the database closes
      await t.server.close();
      t = await startTestServer({ storage: kind, providers: [flowProvider], reuse: t });
      const recent = await t.api('GET', '/v1/accounting/calls?limit=1000', { key: t.adminKey });
      const booked = new Set(recent.body.calls.map((call: TreeNode) => call.callId));
      expect(ids.filter((id) => !booked.has(id))).toEqual([]);
      const tree = await treeOf(ids[0] as string);
      expect(shape(tree.body.tree)).toEqual([
        'flow__plan',
        [
          ['flow__step', []],
          ['flow__step', [['flow__leaf', []]]],
        ],
      ]);
    },
  );
});
