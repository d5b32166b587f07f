import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiAnswer,
  ECHO_TOOL,
  type TestServer,
  grant,
  makeKey,
  putCustomTool,
  startTestServer,
  storages,
} from './helpers/test-server.js';

interface Pending {
  id: string;
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  argumentsHash: string;
}

describe.each(storages())('the approvals inbox on $kind', ({ kind, skip }) => {
  let t: TestServer;
  let agentKey: string;

  beforeAll(async () => {
    if (skip) return;
    t = await startTestServer({
      storage: kind,
      policy: { mode: 'bypass', alwaysAsk: ['custom__guarded'] },
      approvalTimeoutMs: 2_000,
    });
    await putCustomTool(t, 'guarded', ECHO_TOOL);
    agentKey = await makeKey(t, t.adminKey, 'agent', 'asker');
    await grant(t, 'agent', 'asker', ['custom__guarded']);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Starts a call that will wait for approval, and the pending entry it made. */
  async function askedCall(text: string): Promise<{ call: Promise<ApiAnswer>; pending: Pending }> {
    const call = t.api('POST', '/v1/tools/custom__guarded/call', {
      key: agentKey,
      body: { arguments: { text } },
    });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const list = await t.api('GET', '/v1/approvals', { key: t.adminKey });
      const pending = (list.body.approvals as Pending[]).find((approval) => approval.arguments.text === text);
      if (pending) return { call, pending };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the call never showed up in the inbox');
  }

  it.skipIf(skip)(
    'lists a pending call bound to its tool, call id and arguments, and runs it on allow-once',
    async () => {
      const { call, pending } = await askedCall('approve me');
      expect(pending.tool).toBe('custom__guarded');
      expect(pending.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
      const answer = await t.api('POST', `/v1/approvals/${pending.id}`, {
        key: t.adminKey,
        body: {
          decision: 'allow-once',
          callId: pending.callId,
          tool: pending.tool,
          argumentsHash: pending.argumentsHash,
        },
      });
      expect(answer.status).toBe(200);
      const result = await call;
      expect(result.body.result.ok).toBe(true);
      expect(result.body.result.meta.callId).toBe(pending.callId);
      expect(result.body.result.content[0].text).toBe('[approve me]\n');
    },
  );

  it.skipIf(skip)(
    'refuses an answer naming other arguments or another call with 409 approval_mismatch',
    async () => {
      const { call, pending } = await askedCall('exact');
      const otherArgs = await t.api('POST', `/v1/approvals/${pending.id}`, {
        key: t.adminKey,
        body: {
          decision: 'allow-once',
          callId: pending.callId,
          tool: pending.tool,
          argumentsHash: 'f'.repeat(64),
        },
      });
      expect([otherArgs.status, otherArgs.body.error.reason]).toEqual([409, 'approval_mismatch']);
      const otherCall = await t.api('POST', `/v1/approvals/${pending.id}`, {
        key: t.adminKey,
        body: {
          decision: 'allow-once',
          callId: 'call_other',
          tool: pending.tool,
          argumentsHash: pending.argumentsHash,
        },
      });
      expect(otherCall.body.error.message).toContain('callId');
      await t.api('POST', `/v1/approvals/${pending.id}`, {
        key: t.adminKey,
        body: {
          decision: 'deny',
          callId: pending.callId,
          tool: pending.tool,
          argumentsHash: pending.argumentsHash,
        },
      });
      const result = await call;
      expect([result.status, result.body.result.error.code]).toEqual([403, 'DENIED']);
      expect(result.body.result.error.message).toContain('denied by the approver');
    },
  );

  it.skipIf(skip)(
    'denies a call nobody answers once the timeout passes, and drops it from the inbox',
    async () => {
      const { call, pending } = await askedCall('ignored');
      const result = await call;
      expect(result.body.result.error.code).toBe('DENIED');
      expect(result.body.result.error.message).toContain('no approval');
      const list = await t.api('GET', '/v1/approvals', { key: t.adminKey });
      expect((list.body.approvals as Pending[]).map((approval) => approval.id)).not.toContain(pending.id);
      const late = await t.api('POST', `/v1/approvals/${pending.id}`, {
        key: t.adminKey,
        body: {
          decision: 'allow-once',
          callId: pending.callId,
          tool: pending.tool,
          argumentsHash: pending.argumentsHash,
        },
      });
      expect(late.status).toBe(404);
    },
  );

  it.skipIf(skip)('streams new approvals as SSE events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${t.url}/v1/approvals/stream`, {
      headers: { authorization: `Bearer ${t.adminKey}` },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { call, pending } = await askedCall('streamed');
    let text = '';
    for (let reads = 0; reads < 50 && !text.includes(pending.id); reads += 1) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('event: approval-requested');
    expect(text).toContain(pending.callId);
    controller.abort();
    await t.api('POST', `/v1/approvals/${pending.id}`, {
      key: t.adminKey,
      body: {
        decision: 'allow-always',
        callId: pending.callId,
        tool: pending.tool,
        argumentsHash: pending.argumentsHash,
      },
    });
    expect((await call).body.result.ok).toBe(true);
  });
});
